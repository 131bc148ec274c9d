"""Jinja2 templates of schedgen, shipped as package data (schedgen.templates)."""
