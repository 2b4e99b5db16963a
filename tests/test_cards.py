"""Metric cards: the shipped set, lookups, user cards and malformed cards."""

from __future__ import annotations

import dataclasses

import pytest

import mcda
from mcda.data.cards import CardError, MetricCard, UnknownMetricError, card_from_dict, get_card, list_cards, \
    properties_for, register_card

PROMISED = ["accuracy", "balanced_accuracy", "f1_macro", "f1_micro", "auroc", "auprc", "log_loss", "brier", "mcc",
            "cohen_kappa", "ari", "nmi", "ami", "silhouette", "mae", "rmse", "mse", "r2", "mape", "mrr",
            "hits_at_k", "ndcg", "runtime", "peak_memory"]

LOWER = {"log_loss", "brier", "mae", "rmse", "mse", "mape", "runtime", "peak_memory", "entropy_deviation",
         "nclust_deviation"}


def test_at_least_25_cards_with_every_promised_name():
    names = list_cards()
    assert len(names) >= 25
    assert set(PROMISED) <= set(names)


@pytest.mark.parametrize("name", PROMISED)
def test_each_card_is_complete_and_points_the_right_way(name):
    card = get_card(name)
    assert card.long_name and card.noise_floor_justification and card.references
    assert card.noise_floor >= 0
    assert card.interval in ("t", "bootstrap")
    expected = "lower_is_better" if name in LOWER else "higher_is_better"
    assert card.direction == expected
    if card.bounded or card.heavy_tailed:
        assert card.interval == "bootstrap"


def test_ari_noise_floor_is_promised_value():
    assert properties_for(["ari"])[0].noise_floor == 0.01


def test_aliases_resolve_case_insensitively():
    assert get_card("ELAPSED").name == "runtime"
    assert get_card("runtime_s").name == "runtime"
    assert get_card("Adjusted_Rand_Index").name == "ari"
    assert [c.name for c in properties_for(["ari", "Accuracy"])] == ["ari", "accuracy"]


def test_unknown_metric_suggests_nearest():
    with pytest.raises(UnknownMetricError, match="Did you mean 'accuracy'"):
        get_card("acuracy")
    with pytest.raises(KeyError):  # also a KeyError, for dict-like use
        get_card("nothing_like_it_xyz")


def test_properties_for_refuses_a_bare_string():
    with pytest.raises(TypeError, match="`names`"):
        properties_for("ari")


def test_register_card_from_toml_file_and_directory(tmp_path):
    text = """
name = "my_score_xyz"
aliases = ["myscore_xyz"]
long_name = "My score"
task = "other"
direction = "lower_is_better"
[comparability]
noise_floor = 0.5
justification = "half a unit"
"""
    (tmp_path / "mine.toml").write_text(text)
    added = register_card(tmp_path / "mine.toml")
    assert added[0].name == "my_score_xyz"
    assert get_card("MYSCORE_XYZ").noise_floor == 0.5
    with pytest.raises(CardError, match="already"):
        register_card(tmp_path)
    register_card(tmp_path, replace=True)
    cube = mcda.score_cube({"d": {"a": 1.0, "b": 2.0}}, metric="my_score_xyz")
    assert cube.attrs["direction"] == "lower_is_better"


def test_register_card_object():
    card = MetricCard(name="widget_rate_xyz", direction="higher_is_better", noise_floor=0.02)
    register_card(card)
    assert get_card("widget_rate_xyz") is card


@pytest.mark.parametrize("field,value,message", [
    ("direction", "up", "field `direction` must be one of"),
    ("noise_floor", -1.0, "field `comparability.noise_floor` must be >= 0"),
    ("noise_floor", "small", "field `comparability.noise_floor` must be a number"),
    ("interval", "wald", "field `distribution.interval`"),
])
def test_malformed_card_names_file_and_field(tmp_path, field, value, message):
    data = {"name": "bad_xyz", "direction": "higher_is_better", "comparability": {"noise_floor": 0.1},
            "distribution": {}}
    if field == "noise_floor":
        data["comparability"]["noise_floor"] = value
    elif field == "interval":
        data["distribution"]["interval"] = value
    else:
        data[field] = value
    with pytest.raises(CardError, match=message):
        card_from_dict(data, source="bad.toml")
    path = tmp_path / "bad_xyz.toml"
    body = (f'name = "bad_xyz"\ndirection = "{data["direction"]}"\n[comparability]\n'
            f'noise_floor = {value!r}\n' if field == "noise_floor" else
            'name = "bad_xyz"\ndirection = "up"\n[comparability]\nnoise_floor = 0.1\n')
    if field in ("direction", "noise_floor"):
        path.write_text(body.replace("'", '"'))
        with pytest.raises(CardError, match=str(path).replace(".", r"\.")):
            register_card(path)


def test_missing_noise_floor_named():
    with pytest.raises(CardError, match="comparability.noise_floor` is missing"):
        card_from_dict({"name": "x", "direction": "higher_is_better"}, source="x.toml")


def test_card_round_trips_through_dict():
    card = get_card("ari")
    again = card_from_dict(card.to_dict(), source=card.source)
    assert again == card


def test_cards_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        get_card("ari").noise_floor = 0.5
