"""Shared input checks and mcda's warnings (which must point at the user's line)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import mcda
from mcda._core.validation import as_rng, check_alpha, check_choice, check_positive_int, check_probability


def test_warnings_point_at_the_users_line_even_through_nested_views():
    report = mcda.Report(mcda.datasets.load("demsar2006"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report.transitivity()  # Report.transitivity -> Report.superiority -> pairwise_superiority
        mcda.pairwise_superiority(mcda.datasets.load("demsar2006"))
    ours = [w for w in caught if issubclass(w.category, mcda.McdaWarning)]
    assert ours, "demsar2006 has pairs with too few decisive datasets: a SmallSampleWarning is expected"
    assert all(w.filename == __file__ for w in ours), [(w.filename, w.lineno) for w in ours]


def test_check_helpers_name_the_argument_and_the_value():
    with pytest.raises(ValueError, match=r"`test` must be one of \{'a', 'b'\}; got 'c'"):
        check_choice("test", "c", ("a", "b"))
    with pytest.raises(ValueError, match=r"Did you mean 'nemenyi'"):
        check_choice("test", "nemenyl", ("nemenyi", "holm"))
    with pytest.raises(ValueError, match=r"`alpha` must lie in \(0.0, 1.0\); got 1.5"):
        check_alpha(1.5)
    with pytest.raises(TypeError, match="`alpha` must be a real number"):
        check_alpha("0.05")
    with pytest.raises(ValueError, match="`n_resamples` must be an integer >= 1; got 0"):
        check_positive_int("n_resamples", 0)
    with pytest.raises(TypeError, match="`n_resamples` must be an integer"):
        check_positive_int("n_resamples", True)
    assert check_probability("confidence_level", 1.0, closed="right") == 1.0


def test_as_rng_accepts_what_default_rng_accepts_and_refuses_legacy_state():
    gen = np.random.default_rng(3)
    assert as_rng(gen) is gen
    assert as_rng(5).integers(100) == np.random.default_rng(5).integers(100)
    with pytest.raises(TypeError, match="legacy RandomState"):
        as_rng(np.random.RandomState(1))
    with pytest.raises(TypeError, match="`rng` must be"):
        as_rng("seed")


def test_every_control_argument_is_checked_by_one_rule():
    # check_control is the one home: every function with `control=` says the same thing
    from mcda._core.validation import check_control

    gen = np.random.default_rng(4)
    scores = gen.uniform(size=(8, 4))
    names = ["a", "b", "c", "d"]
    cube = mcda.score_cube(scores, direction="higher_is_better", method_names=names)
    holed = scores.copy()
    holed[0, 3] = np.nan
    holed_cube = mcda.score_cube(holed, direction="higher_is_better", method_names=names)
    calls = [lambda c: mcda.control_test(c, control="bb", test="holm"),
             lambda c: mcda.friedman_aligned_ranks_test(c, control="bb"),
             lambda c: mcda.quade_test(c, control="bb"),
             lambda c: mcda.pairwise_over_datasets(c, control="bb")]
    for call in calls:
        with pytest.raises(mcda.McdaArgumentError, match=r"`control` must be one of the methods compared "
                                                         r"\[a, b, c, d\]; got 'bb'\. Did you mean 'b'\?") as info:
            call(cube)
        assert info.value.argument == "control"
    with pytest.raises(ValueError, match=r"`control` must be one of the methods compared \[a, b, c, d\]; got 'bb'"):
        mcda.compare_over_datasets(holed_cube, missing="available", test="holm", control="bb")
    with pytest.raises(ValueError, match=r"`control` 'd' was excluded as incomplete: it lacks \[dataset_0\]"), \
            pytest.warns(mcda.MissingDataWarning, match="d lacks"):
        mcda.control_test(holed_cube, control="d", test="holm")
    with pytest.raises(TypeError, match="`control` must be the name of a method"):
        check_control(3, names)
    assert check_control("c", names) == "c"
