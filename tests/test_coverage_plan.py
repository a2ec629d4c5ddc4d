"""tests/coverage_plan.py: the greedy cover that chooses the measured quick tests, and the
durations it reads (hand-made examples, their answers counted by hand)."""
from __future__ import annotations

import base64
import json

import coverage_plan
from conftest import in_test_context


def test_the_cover_takes_the_cheapest_per_new_line_first_and_reaches_every_line():
    reached = {
        "big": {("a", n) for n in range(1, 11)},        # 10 lines for 10 s: 1 s a line
        "left": {("a", n) for n in range(1, 6)},        # 5 lines for 1 s: 0.2 s a line
        "right": {("a", n) for n in range(6, 11)},      # 5 lines for 1 s
        "extra": {("a", 11), ("a", 1)},                 # the only one reaching line 11
        "idle": {("a", 12)},                            # line 12 is run anyway (a fixture)
    }
    cost = {"big": 10.0, "left": 1.0, "right": 1.0, "extra": 3.0, "idle": 0.5}
    chosen = coverage_plan.cheapest_cover(reached, {("a", 12)}, cost)
    # left and right reach lines 1-10 for 2 s (big would take 10 s); extra alone reaches 11.
    assert sorted(chosen) == ["extra", "left", "right"]
    assert set().union(*(reached[t] for t in chosen)) >= {("a", n) for n in range(1, 12)}


def test_a_test_whose_lines_others_reached_first_is_scored_again_before_it_is_taken():
    reached = {"a": {1, 2, 3, 4}, "b": {1, 2, 3}, "c": {4, 5}}
    # b first (0.2 s a line; a 0.25, c 0.6); then a would add line 4 only, at 1 s a line,
    # and c adds lines 4 and 5 at 0.6 s a line: c, and a is never needed.
    assert coverage_plan.cheapest_cover(reached, set(), {"a": 1.0, "b": 0.6, "c": 1.2}) == ["b", "c"]


def test_durations_add_up_setup_call_and_teardown_per_test(tmp_path):
    report = tmp_path / "durations.txt"
    report.write_text("=== slowest durations ===\n"
                      "1.50s call     tests/test_a.py::test_one[x-y z]\n"
                      "0.25s setup    tests/test_a.py::test_one[x-y z]\n"
                      "0.00s teardown tests/test_b.py::test_two\n"
                      "1 passed in 2.00s\n")
    assert coverage_plan.durations(report) == {"tests/test_a.py::test_one[x-y z]": 1.75,
                                               "tests/test_b.py::test_two": 0.0}


def test_a_subprocess_of_a_measured_test_records_its_lines_under_the_tests_context():
    config = base64.b64encode(json.dumps({"context": None, "branch": False}).encode()).decode()
    changed = json.loads(base64.b64decode(in_test_context(config, "tests/test_a.py::test_one")))
    assert changed == {"context": "tests/test_a.py::test_one|run", "branch": False}
