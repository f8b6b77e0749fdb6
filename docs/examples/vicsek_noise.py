"""The Vicsek noise study of docs/science.md from Python: v_a against eta for N = 400 at
density 4 (Vicsek et al. 1995, Fig. 2a), from murmur.sweep to a plot.

    PYTHONPATH=build/python python3 docs/examples/vicsek_noise.py [OUT.png] [DASK_ADDRESS]
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

import murmur

if __name__ == "__main__":  # local workers re-import this file: the study runs once
    out = sys.argv[1] if len(sys.argv) > 1 else "out/vicsek-noise.png"
    client = None
    if len(sys.argv) > 2:  # a Dask scheduler, e.g. tcp://host:8786
        from distributed import Client
        client = Client(sys.argv[2])
    table = murmur.sweep("scenarios/science/vicsek-N400.toml",
                         {"species.particles.noise": "0:5:11"}, seeds=2, steps=1500,
                         every=10, measure_from=750, backend="cpu", client=client)
    by_noise = table.groupby("species.particles.noise")["polarization_mean"]
    plt.errorbar(by_noise.mean().index, by_noise.mean(), yerr=by_noise.std(), fmt="o-",
                 capsize=3, label="murmur, N = 400, 2 seeds")
    plt.xlabel("noise $\\eta$")
    plt.ylabel("$v_a$ (mean over steps 750 to 1500)")
    plt.ylim(0, 1.02)
    plt.legend()
    plt.savefig(out, dpi=100)
    print(table[["species.particles.noise", "seed", "polarization_mean"]].to_string(index=False))
