"""Where the climb spends its CPU: an Ito climb from scratch (seed 7,
9-99 plies), shard after shard in this process for 60 CPU seconds, each
shard starting from the pool of every shard before it, under cProfile;
prints the cumulative seconds of the composer's stages.  Not a test.

Run:  nice .venv/bin/python benchmarks/climb_profile.py
"""

import cProfile, pstats, time
from tsume.compose.run import Settings, run_shard, merge_pool, pool_cap
from tsume.compose.filters import Criteria
from tsume.compose import memo
s = Settings(variant="ito", methods=("climb",), seed=7, limits=Criteria(min_length=9, max_length=99)).check()
pool = []
pr = cProfile.Profile()
t = time.process_time()
i = 0
pr.enable()
while time.process_time() - t < 60:
    r = run_shard(s, i, pool)
    pool = merge_pool(pool, r.parents, s.pool_size, pool_cap(s))  # each shard sees every earlier one: a serial climb
    i += 1
pr.disable()
print("shards", i, "cpu", round(time.process_time() - t, 1), "memory", memo.remembered())
st = pstats.Stats(pr)
tot = st.total_tt
for name in ("mate", "sound", "economise", "two_plies_back", "consider", "considered", "rate", "themes", "mate_pictures"):
    for (f, l, fn), v in st.stats.items():
        if fn == name and "tsume" in f:
            print(f"{name:16s} {f.split('tsume/')[-1]:28s} cum {v[3]:.1f} s")
