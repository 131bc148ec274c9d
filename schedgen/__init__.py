"""schedgen: reads linalg-on-tensors payloads, plans memory-fit tile-and-fuse
loop nests, and writes Transform-dialect schedules for the interpreter."""

__version__ = "0.1.0"
