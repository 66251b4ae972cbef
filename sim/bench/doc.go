// Package bench is the engine of `neurogo bench sim`: the simulation
// benchmark of the NengoDL paper (Rasmussen 2019, §5.1, Figs 6–7) run on the
// CPU simulator and, optionally, beside Nengo 4.1's reference simulator.
//
// # Protocol
//
// Models integrator, cconv, basal_ganglia and pes (toolkit/networks
// Bench*) at D dimensions with 9984 neurons in total (neurons per
// dimension = 9984 / D, integer division), RectifiedLinear neurons on
// every ensemble (as NengoDL's benchmark sets them), seed 0. Each (model,
// D, batch) cell builds once (timed: build_s), makes one simulator with
// Batch(batch) and the per-step NaN check off (Nengo has none), runs a
// warm-up (0.1 s) and then Repeats runs of Seconds simulated (5 × 5 s;
// Quick: 0.05 s, 2 × 1 s), all inside one RunSteps call so the probe
// storage is reserved once and nothing allocates while timing; the
// repeats are timed at their step boundaries by the simulator's Progress
// hook. Reported per cell: mean wall seconds per run, real time /
// simulated time with a 95 % interval (Student t over the repeats, MeanCI),
// µs per step (of the whole batch), build time, heap allocations per step
// (runtime/metrics object count over the timed steps) and peak RSS
// (VmHWM, reset per cell through /proc/self/clear_refs where Linux
// allows it). Every invocation first measures the copy bandwidth of one
// core (CopyBandwidth: a STREAM-like copy between two 64 MiB slices, best
// of 10, 2 × 64 MiB counted per copy); each row then carries its roofline
// figure: the bytes of weights and state a step touches
// (sim.Plan.BytesPerStep × batch, every lane having its own store)
// divided by the step time, as GB/s and as a fraction of that copy
// bandwidth. A fraction above 1 is possible: a step whose bytes fit in
// the caches is not limited by memory, and batched lanes step on up to
// GOMAXPROCS cores while the copy runs on one. Config.Opt (the --opt flag) selects the optimizer passes;
// the row records them (opt).
//
// # Ablation
//
// Ablation (--ablation) builds the SPA-style stress model StressNetwork
// (state memories, circular convolutions, basal ganglia and thalamus from
// toolkit/networks; Stress(): 100 800 neurons in 1168 ensembles,
// StressQuick(): 25 600 in 296) once per row of sim.Ablations() and
// reports build + optimisation time, µs per step and the speed relative
// to the rows "none" and "all" (the NengoDL paper, Fig 8): the greedy and the tree
// planner in place of the default level planner, 10 steps per dispatch
// (sim.Unroll), and each pass switched off.
//
// Nengo runs through nengo_bench.py (next to this file) in the venv
// scripts/check-nengo-fixtures creates; RunNengo parses its JSON line.
// Batched rows compare neurogo batch b with b serial Nengo runs: the
// Nengo time of a batch-b row is b × the mean single-run time.
//
// # Invariants
//
//   - No timing is asserted in tests; tests check the interval maths,
//     the JSON format and that every model runs a few steps.
//   - Results are plain values; Result marshals to one JSON object with
//     these field names (model, dims, batch, backend, seconds,
//     realtime_ratio, ci_low, ci_high, us_per_step, build_s,
//     allocs_per_step; nengo_time and speedup only after a comparison).
package bench
