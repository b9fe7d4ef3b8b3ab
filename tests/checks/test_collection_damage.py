"""Property-based: a collection file cut, corrupted and re-encoded at random opens with every step that
lies whole before the damage (the damage said, by line), or is refused with a message naming the file
(never a Traceback); a save into a damaged file refuses and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from damage_support import apply_damage, as_utf8, damages, first_difference
from hypothesis import HealthCheck, given, settings

from inspector.checks.collection import Collection, CollectionError, encoding_note, load, update

SETTINGS = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def a_collection(steps: int = 3) -> Collection:
    collection = Collection("smoke ✓")
    collection.add_step("tools/list", {}, server="Demo server", expect=[{"kind": "success"}])
    collection.add_step(
        "tools/call", {"name": "echo", "arguments": {"message": "café"}}, server="Demo server", name="écho"
    )
    collection.add_step(
        "resources/read", {"uri": "demo://zoë"}, expect=[{"kind": "contains", "path": "$", "value": "ü"}]
    )
    for number in range(3, steps):
        collection.add_step("tools/call", {"name": "echo", "arguments": {"message": f"n{number}"}}, name=f"#{number}")
    return collection


def step_ends(data: bytes, collection: Collection) -> list[int]:
    """Where each step's object ends in the file as written."""
    ends, pos = [], 0
    for step in collection.steps:
        text = json.dumps(step.to_json(), indent=2, ensure_ascii=False).replace("\n", "\n    ").encode()
        pos = data.index(text, pos) + len(text)
        ends.append(pos)
    return ends


@SETTINGS
@given(ops=damages())
def test_a_damaged_collection_keeps_every_step_before_the_damage_and_a_save_never_overwrites_it(
    tmp_path: Path, ops
) -> None:
    original = a_collection(6)
    data = original.dumps().encode()
    damaged = apply_damage(data, ops)
    path = tmp_path / "smoke.json"
    path.write_bytes(damaged)
    intact_before = first_difference(data, as_utf8(damaged, ops))  # re-encoded as UTF-16: read as such
    whole = [
        s.to_json() for s, end in zip(original.steps, step_ends(data, original), strict=True) if end <= intact_before
    ]
    try:
        opened = load(path)
    except CollectionError as exc:
        assert str(path) in str(exc) or path.name in str(exc)
        assert not whole, f"refused, though steps {[s['id'] for s in whole]} lie whole before the damage: {exc}"
        try:
            update(path, lambda c: c.add_step("ping", {}))
        except CollectionError:
            pass
        else:
            raise AssertionError("a save replaced a collection it could not read")
        assert path.read_bytes() == damaged
        return
    shown = [s.to_json() for s in opened.steps]
    assert all(step in shown for step in whole), (whole, shown, opened.damage)
    if opened.damage:  # opened from what was intact: said, and never overwritten
        assert opened.damage[0].startswith("damaged: ")
        try:
            update(path, lambda c: c.add_step("ping", {}))
        except CollectionError as exc:
            assert "damaged" in str(exc) and "new file" in str(exc)
        else:
            raise AssertionError("a save replaced a damaged collection")
        assert path.read_bytes() == damaged
        return
    if opened.encoding:  # read from UTF-16: said, and never overwritten
        try:
            update(path, lambda c: c.add_step("ping", {}))
        except CollectionError as exc:
            assert opened.encoding in str(exc) and "new file" in str(exc)
        else:
            raise AssertionError("a save replaced a UTF-16 collection")
        assert path.read_bytes() == damaged
        return
    steps = len(opened.steps)
    merged, _ = update(path, lambda c: c.add_step("ping", {}))
    assert len(load(path).steps) == steps + 1 == len(merged.steps)


def test_a_collection_cut_after_three_steps_opens_with_them_and_says_where(tmp_path: Path) -> None:
    collection = a_collection(5)
    data = collection.dumps().encode()
    cut = data[: step_ends(data, collection)[2] + 40]  # three whole steps, then part of the fourth
    path = tmp_path / "cut.json"
    path.write_bytes(cut)
    opened = load(path)
    assert [s.id for s in opened.steps] == ["s1", "s2", "s3"]
    assert opened.name == "smoke ✓" and opened.damage[0].startswith("damaged: invalid JSON at line")
    assert any("what followed step s3 is lost" in note and "line " in note for note in opened.damage), opened.damage


def test_a_damaged_step_in_the_middle_loses_only_that_step(tmp_path: Path) -> None:
    collection = a_collection(5)
    data = collection.dumps().encode()
    ends = step_ends(data, collection)
    broken = data[: ends[1] - 30] + b"\xff{{" + data[ends[1] - 30 :]  # inside step s2
    path = tmp_path / "middle.json"
    path.write_bytes(broken)
    opened = load(path)
    assert [s.id for s in opened.steps] == ["s1", "s3", "s4", "s5"]
    assert any("what followed step s1 is lost" in note for note in opened.damage), opened.damage


def test_run_runs_the_intact_steps_of_a_cut_collection_says_what_was_lost_and_does_not_pass(tmp_path: Path) -> None:
    import sys

    from lens_support import run_lens

    from inspector.cli import exit_codes

    collection = Collection("cut")
    for number in range(5):
        collection.add_step("tools/call", {"name": "echo", "arguments": {"message": f"m{number}"}})
    data = collection.dumps().encode()
    path = tmp_path / "cut.json"
    path.write_bytes(data[: step_ends(data, collection)[2] + 25])
    result = run_lens("run", str(path), "--format", "json", "--", sys.executable, "-m", "inspector.demo")
    assert result.returncode == exit_codes.DAMAGED_FILE, result.stdout + result.stderr
    assert [s["status"] for s in json.loads(result.stdout)["steps"]] == ["passed"] * 3
    assert "what followed step s3 is lost" in result.stderr and "invalid JSON at line" in result.stderr


@pytest.mark.parametrize(
    ("codec", "named"), [("utf-16", "UTF-16 LE"), ("utf-16-be", "UTF-16 BE"), ("utf-32", "UTF-32 LE")]
)
def test_a_utf16_collection_opens_whole_says_so_and_is_never_saved_over(tmp_path: Path, codec, named) -> None:
    path = tmp_path / "wide.json"
    mark = "\ufeff".encode(codec) if codec.endswith("-be") else b""
    path.write_bytes(mark + a_collection().dumps().encode(codec))
    wide = path.read_bytes()
    opened = load(path)
    assert [s.to_json() for s in opened.steps] == [s.to_json() for s in a_collection().steps]
    assert opened.encoding == named and not opened.damage
    assert f"this file is {named}" in encoding_note(opened)
    try:
        update(path, lambda c: c.add_step("ping", {}))
    except CollectionError as exc:
        assert named in str(exc) and "new file" in str(exc), exc
    else:
        raise AssertionError("a save replaced a UTF-16 collection")
    assert path.read_bytes() == wide


def test_run_runs_a_utf16_collection_and_says_its_encoding_once(tmp_path: Path) -> None:
    import sys

    from lens_support import run_lens

    from inspector.cli import exit_codes

    collection = Collection("wide")
    for number in range(3):
        collection.add_step("tools/call", {"name": "echo", "arguments": {"message": f"m{number} ✓"}})
    path = tmp_path / "wide.json"
    path.write_bytes(collection.dumps().encode("utf-16"))
    result = run_lens("run", str(path), "--format", "json", "--", sys.executable, "-m", "inspector.demo")
    assert result.returncode == exit_codes.OK, result.stdout + result.stderr
    assert [s["status"] for s in json.loads(result.stdout)["steps"]] == ["passed"] * 3
    assert result.stderr.count("this file is UTF-16 LE") == 1, result.stderr


ONE_STEP_PER_LINE = (
    b'{"format": "mcp-lens-collection", "version": 1, "name": "lines", "steps": [\n'
    b'{"id": "s1", "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "a\xff\xfeb"}}},\n'
    b'{"id": "s2", "method": "tools/list", "params": {}, "expect": [{"kind": "success"}]}\n'
    b"]}\n"
)


def test_a_step_with_bytes_that_are_not_utf8_loses_only_that_step_its_bytes_kept(tmp_path: Path) -> None:
    """The outside tester's file: one step per line, 0xFF 0xFE inside s1. It was refused whole (exit 2)."""
    path = tmp_path / "lines.json"
    path.write_bytes(ONE_STEP_PER_LINE)
    opened = load(path)
    assert [s.id for s in opened.steps] == ["s2"]
    assert any("line 2" in note and "0xFF 0xFE" in note and "s1" in note for note in opened.damage), opened.damage
    assert [(lost.line, lost.raw) for lost in opened.lost] == [(2, ONE_STEP_PER_LINE.splitlines()[1].rstrip(b","))]


def test_a_broken_step_in_a_one_step_per_line_file_loses_only_that_line(tmp_path: Path) -> None:
    path = tmp_path / "lines.json"
    head, s1, s2, end = ONE_STEP_PER_LINE.splitlines(keepends=True)
    s1 = s1.replace(b'"a\xff\xfeb"}}}', b'"a"}')  # its braces do not close
    broken = head + s1 + s2.replace(b"}\n", b"},\n") + b'{"id": "s3", "method": "ping"}\n' + end
    path.write_bytes(broken)
    opened = load(path)
    assert [s.id for s in opened.steps] == ["s2", "s3"], opened.damage
    assert any("line 2" in note for note in opened.damage), opened.damage
    assert opened.lost and opened.lost[0].raw.startswith(b'{"id": "s1"')


def test_run_says_in_its_summary_and_exit_code_that_the_file_was_damaged(tmp_path: Path) -> None:
    import sys

    from lens_support import run_lens

    from inspector.cli import exit_codes

    path = tmp_path / "lines.json"
    path.write_bytes(ONE_STEP_PER_LINE)
    result = run_lens("run", str(path), "--", sys.executable, "-m", "inspector.demo")
    assert result.returncode == exit_codes.DAMAGED_FILE, result.stdout + result.stderr
    assert "PASS  s2" in result.stdout
    summary = result.stdout.strip().splitlines()[-1]
    assert "1/1 passed" in summary and "damaged" in summary and "1 step lost" in summary, summary
    report = run_lens("run", str(path), "--format", "json", "--", sys.executable, "-m", "inspector.demo")
    data = json.loads(report.stdout)
    assert data["damaged"] and any("0xFF 0xFE" in note for note in data["damage"]), data


def one_step_per_line(steps: int = 6) -> tuple[bytes, list[bytes]]:
    """A collection written by hand or by another tool: one compact step object per line."""
    lines = [
        json.dumps({"id": f"s{n}", "method": "tools/call", "params": {"name": "echo", "arguments": {"m": f"é{n}"}}})
        for n in range(1, steps + 1)
    ]
    head = '{"format": "mcp-lens-collection", "version": 1, "name": "lines", "steps": [\n'
    return (head + ",\n".join(lines) + "\n]}\n").encode(), [line.encode() for line in lines]


@SETTINGS
@given(ops=damages())
def test_a_damaged_one_step_per_line_collection_keeps_every_intact_line(tmp_path: Path, ops) -> None:
    """Every step whose line is unchanged (and is not the line the damage ran into) is shown."""
    data, lines = one_step_per_line()
    damaged = apply_damage(data, ops)
    path = tmp_path / "lines.json"
    path.write_bytes(damaged)
    damaged_lines = as_utf8(damaged, ops).split(b"\n")  # re-encoded as UTF-16: its lines as read
    header_intact = damaged_lines[0] == data.split(b"\n")[0]
    intact = [
        json.loads(line)["id"]
        for number, line in enumerate(lines, start=1)
        if number < len(damaged_lines) - 1
        and damaged_lines[number].rstrip(b",") == line
        and damaged_lines[number - 1].rstrip().endswith((b",", b"["))  # what comes before it closes
    ]
    try:
        opened = load(path)
    except CollectionError as exc:
        assert not (intact and header_intact), f"refused, though {intact} are intact: {exc}"
        return
    shown = [s.id for s in opened.steps]
    assert all(step in shown for step in intact) or not header_intact, (intact, shown, opened.damage)


def test_a_refused_damaged_collection_says_why_each_step_was_left_out(tmp_path: Path) -> None:
    """Nothing left to run: the refusal names the bytes of s1 and what is wrong with s2, not only the bytes."""
    path = tmp_path / "lines.json"
    path.write_bytes(ONE_STEP_PER_LINE.replace(b'[{"kind": "success"}]', b'[{"success": true}]'))
    try:
        load(path)
    except CollectionError as exc:
        said = str(exc)
        assert "0xFF 0xFE" in said and "line 2" in said and "line 3" in said and "unknown assertion" in said, said
    else:
        raise AssertionError("a collection without one runnable step was opened")
