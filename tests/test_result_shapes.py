"""The shapes a checkpoint must fit (``experiments/shapes.py``): each rule is a test that a file
breaking it is refused, so that a mutant dropping the rule is caught."""
from __future__ import annotations

import json
import math

import pytest

from ppdm_edu.experiments import shapes as S


@pytest.mark.parametrize("expected, given", [(1, 1.0), (1, True), (1.0, 1), (True, 1), (0, False),
                                             ([1, 2], [1.0, 2]), ("1", 1), (None, 0)])
def test_exactly_counts_the_type_not_only_equality(expected, given):
    shape = S.Exactly(expected)
    assert shape.load(json.loads(json.dumps(expected))) == expected
    with pytest.raises(S.ShapeError):
        shape.load(given)
    with pytest.raises(S.ShapeError):
        shape.dump(given)


def test_a_list_has_its_declared_length():
    exact = S.List(S.Float(0, 1), length=2)
    assert exact.load([0.5, 0.25]) == [0.5, 0.25]
    for wrong in ([0.5], [0.5] * 3, []):
        with pytest.raises(S.ShapeError, match="items"):
            exact.load(wrong)
        with pytest.raises(S.ShapeError, match="items"):
            exact.dump(wrong)
    between = S.List(S.Int(0, 9), length=(1, 3))
    assert between.load([1]) == [1] and between.load([1, 2, 3]) == [1, 2, 3]
    for wrong in ([], [1, 2, 3, 4]):
        with pytest.raises(S.ShapeError, match="items"):
            between.load(wrong)


def test_a_record_has_exactly_its_fields_in_order():
    shape = S.Record(a=S.Int(0, 9), b=S.Str())
    assert shape.load({"a": 1, "b": "x"}) == {"a": 1, "b": "x"}
    for wrong in ({"a": 1, "b": "x", "c": 2}, {"a": 1}, {"b": "x", "a": 1}, {"a": 1, "c": "x"}):
        with pytest.raises(S.ShapeError, match="fields"):
            shape.load(wrong)
        with pytest.raises(S.ShapeError, match="fields"):
            shape.dump(wrong)


def test_a_tuple_has_exactly_its_items():
    shape = S.Tuple(S.Int(0, 9), S.Float(0, 1))
    assert shape.load([1, 0.5]) == (1, 0.5) and shape.dump((1, 0.5)) == [1, 0.5]
    for wrong in ([1, 0.5, 2], [1]):
        with pytest.raises(S.ShapeError, match="items"):
            shape.load(wrong)
        with pytest.raises(S.ShapeError, match="items"):
            shape.dump(tuple(wrong))
    with pytest.raises(S.ShapeError, match="tuple"):
        shape.dump([1, 0.5])


@pytest.mark.parametrize("data", [10**400, -(10**400), 2**63, 1.0, True, "3", None])
def test_an_int_outside_its_range_or_of_another_type_is_refused_in_one_line(data):
    with pytest.raises(S.ShapeError) as err:
        S.Int(1, 10**7).load(data)
    assert len(str(err.value)) < 200 and "\n" not in str(err.value)


@pytest.mark.parametrize("data", ["inf", "-inf", "nan", json.loads("1e400"), 1.5, -0.5, 1, True])
def test_a_float_outside_its_range_is_refused(data):
    with pytest.raises(S.ShapeError):
        S.Float(0, 1).load(data)


def test_a_huge_value_given_to_dump_is_a_shape_error_not_an_overflow():
    with pytest.raises(S.ShapeError):
        S.Float(0, 1).dump(10**400)
    with pytest.raises(S.ShapeError):
        S.Int(0, 9).dump(10**400)


@pytest.mark.parametrize("make", [lambda: S.Int(0, math.inf), lambda: S.Int(5, 1), lambda: S.Float(1, 0),
                                  lambda: S.Float(0, math.nan), lambda: S.Int(True, 3),
                                  lambda: S.List(S.Str(), length=(3, 1)), lambda: S.Exactly(object())])
def test_a_shape_without_a_sound_range_cannot_be_declared(make):
    with pytest.raises((ValueError, TypeError)):
        make()


def _numbers(shape):
    if isinstance(shape, (S.Int, S.Float)):
        yield shape
    for child in (getattr(shape, "items", ()) if isinstance(shape, S.Tuple) else
                  [shape.item] if isinstance(shape, S.List) else
                  list(shape.fields.values()) if isinstance(shape, S.Record) else
                  list(shape.columns.values()) if isinstance(shape, S.Table) else []):
        yield from _numbers(child)


def test_every_number_of_every_reproduction_has_a_finite_range():
    from ppdm_edu.experiments import REPRODUCTIONS, load

    seen = 0
    for name in REPRODUCTIONS:
        for mode in ("quick", "full"):
            for task in load(name).plan(mode, 0):
                for number in _numbers(S.shape_of(task.func, task.kwargs)):
                    assert math.isfinite(number.low) and math.isfinite(number.high), (name, task.name, number)
                    seen += 1
    assert seen > 1000


def test_a_difference_is_named_and_a_timing_is_not_compared():
    shape = S.Record(accuracy=S.Float(0, 1), seconds=S.Float(0, 1e6, compared=False), leaves=S.Int(1, 99))
    a = {"accuracy": 0.8, "seconds": 1.0, "leaves": 3}
    assert shape.difference(a, {**a, "seconds": 2.5}) is None
    assert shape.difference(a, {**a, "accuracy": 0.8 + 1e-13}) is None     # the last bits of a sum
    assert shape.difference(a, {**a, "accuracy": 0.85}) == "field 'accuracy': 0.8 != 0.85"
    assert shape.difference(a, {**a, "leaves": 4}) == "field 'leaves': 3 != 4"
    assert S.Tuple(S.Int(0, 9)).difference([1], [2]) == "item 0: 1 != 2"
    assert S.List(S.Float(0, 1), length=(0, 5)).difference([0.5], [0.5, 0.5]) == "1 items != 2"


def test_a_string_a_bool_an_int_and_plain_json_are_what_they_say():
    for data in (5, None, ["a"], 1.5):
        with pytest.raises(S.ShapeError, match="string"):
            S.Str().load(data)
    with pytest.raises(S.ShapeError, match="int"):
        S.Int(0, 9).dump(True)
    for data in (math.inf, -math.inf, math.nan, (1, 2), {1: "a"}):
        with pytest.raises(S.ShapeError):
            S.Plain().load(data)
    deep: list = []
    for _ in range(60):
        deep = [deep]
    with pytest.raises(S.ShapeError, match="deeper"):
        S.Plain().load(deep)


def test_a_table_is_indexed_by_its_declared_column():
    import pandas as pd

    shape = S.Table("data", {"bits": S.Float(0, 1)}, length=1)
    table = pd.DataFrame({"data": ["d1"], "bits": [0.5]}).set_index("data")
    assert shape.load(shape.dump(table)).equals(table)
    with pytest.raises(S.ShapeError, match="indexed by 'data'"):
        shape.dump(table.rename_axis("other"))
