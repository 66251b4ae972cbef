// Package hxtorch reproduces the analog-accelerator results of "hxtorch:
// PyTorch for BrainScaleS-2 — Perceptrons on Analog Neuromorphic
// Hardware" (Spilger et al., 2020; the hxtorch paper) with neurogo's
// emulated chip: the MAC-rate
// measurements of Fig 8 (BenchAccel, `neurogo bench accel`) and the
// human-activity-recognition experiment of §4.2, Table 1 and Fig 9
// (HAR, `neurogo repro har-analog`). It is an application package: it
// ties accel/analog to train, train/data and viz. Both stop on the
// process's interrupt flag (package interrupt): HAR through Fit and
// Predict, BenchAccel between repeats (one repeat of the float32 GEMM at
// 16384² takes seconds and is not cut short).
//
// HAR's steps are exported for notebooks that show them one by one:
// LoadHAR and SubsetHAR (data), HARArrays (hardware units), PlanHAR and
// NewHARNet (Table 1's model on an analog system), TrainLayersOnly and
// CompileHAR (training set-up), EvalHAR and HARConfusion (Fig 9's
// panels).
package hxtorch
