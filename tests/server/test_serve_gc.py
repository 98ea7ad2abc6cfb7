"""``pagoda serve`` collects garbage rarely: full collections stall every table at once."""

import gc

from pagoda.server.serve import GC_THRESHOLDS, tune_gc


def test_tune_gc_sets_the_thresholds_and_freezes_what_exists() -> None:
    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLDS == (50_000, 20, 100)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
