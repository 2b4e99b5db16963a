"""Shared input checks and mcda's warnings (which must point at the user's line)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import mcda
from mcda._validation import as_rng, check_alpha, check_choice, check_positive_int, check_probability


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
