"""A short soak: play and command floods, memory and descriptors flat once the bounded caches
have filled. (`houston bench soak --minutes M` is the long run; figures in docs/faults.md.)"""

from device.simulation.soak_bench import GROWTH_LIMIT, run


def test_memory_and_descriptors_stay_flat_under_play_and_floods(tmp_path):
    figures = run(minutes=0.6, seed=3, data_dir=tmp_path, sample_seconds=2.0, warmup=0.5)
    assert figures["games_played"] >= 3 and figures["commands_flooded"] >= 2000
    assert figures["rss_growth"] <= GROWTH_LIMIT, figures
    assert figures["fds_end"] <= figures["fds_after_warmup"], figures
