"""`generate` proves its schedule applies with the shipped xtc-opt: a failing
step is one line at the payload op it handles, an MLIR abort is one line
saying so, and no output file is written."""

from __future__ import annotations

import pytest
from conftest import ROOT

from schedgen.cli import main
from schedgen.errors import SchedgenError
from schedgen.ir.opt_tool import applies_or_raise, applies_with_tool

PAYLOAD = ROOT / "payloads" / "matmul_bias_relu.mlir"
SCHEDULE = ROOT / "schedules" / "matmul_bias_relu.npu-256k.mlir"
ZERO_TILES = ROOT / "tests" / "bad_inputs" / "zero_tiles.schedule.mlir"
def _broken(text: str) -> str:
    """op2 (the relu generic) matched by a type it does not have: its split finds no op at run time."""
    head, tail = text.split("// linalg.generic -> tensor<1024x1024xf32>: op2", 1)
    return head + "// linalg.generic -> tensor<1024x1024xf32>: op2" + tail.replace(
        "filter_result_type = tensor<1024x1024xf32>", "filter_result_type = tensor<1024x1023xf32>", 1)


def test_good_schedule_applies() -> None:
    applies_with_tool(PAYLOAD, SCHEDULE)


def test_abort_is_one_line() -> None:
    with pytest.raises(SchedgenError) as info:
        applies_with_tool(PAYLOAD, ZERO_TILES)
    msg = info.value.line()
    assert "\n" not in msg and "MLIR aborted" in msg and "xtc-opt" in msg


def test_failing_step_names_the_payload_op(tmp_path) -> None:
    bad = tmp_path / "s.mlir"
    bad.write_text(_broken(SCHEDULE.read_text()))
    with pytest.raises(SchedgenError) as info:
        applies_with_tool(PAYLOAD, bad)
    line = int(info.value.where.split(":")[-2])
    assert info.value.where.startswith(f"{bad}:") and "%op2 = transform.split_handle" in \
        bad.read_text().splitlines()[line - 1]

    from schedgen.ir.load import load_payload
    from schedgen.model.target import load_target
    from schedgen.planning.planner import plan

    p = plan(load_payload(PAYLOAD), load_target("npu-256k"))
    with pytest.raises(SchedgenError) as info:
        applies_or_raise(PAYLOAD, _broken(SCHEDULE.read_text()), p)
    assert info.value.where == f"{PAYLOAD}:11" and info.value.op == "linalg.generic"
    assert "internal: the schedule planned for this payload does not apply" in info.value.message


def test_generate_writes_nothing_when_its_schedule_does_not_apply(tmp_path, monkeypatch, capsys) -> None:
    import schedgen.emit.schedule as schedule

    real = schedule.render
    monkeypatch.setattr(schedule, "render", lambda plan: _broken(real(plan)))
    out = tmp_path / "s.mlir"
    assert main(["generate", str(PAYLOAD), "--target", "npu-256k", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{PAYLOAD}:11" in err and "no schedule written" in err
    assert not out.exists()


def test_in_process_printing_assumes_verified_only_while_a_schedule_applies() -> None:
    """The bindings' printer verifies what it prints (an invalid op prints in
    generic form); while a schedule applies it does not, as xtc-opt's
    --mlir-print-assume-verified, and after it does again."""
    from mlir import ir

    from schedgen.ir.context import new_context, printing_assumes_verified

    with new_context(), ir.Location.unknown():
        module = ir.Module.parse("func.func @f(%a: i32) -> i32 {\n  %b = arith.addi %a, %a : i32\n"
                                 "  return %b : i32\n}")
        func = module.body.operations[0]
        func.regions[0].blocks[0].operations[1].erase()  # no terminator: does not verify
        assert str(func).startswith('"func.func"()')
        with printing_assumes_verified():
            assert str(func).startswith("func.func @f")
        assert str(func).startswith('"func.func"()')
