// Package repro reproduces the analog-accelerator results of seed 002
// (hxtorch on BrainScaleS-2) with neurogo's emulated chip: the MAC-rate
// measurements of Fig 8 (BenchAccel, `neurogo bench accel`) and the
// human-activity-recognition experiment of §4.2, Table 1 and Fig 9
// (HAR, `neurogo repro har-analog`). It is an application package: it
// ties accel/analog to train, train/data and viz. Both stop on the
// process's interrupt flag (package interrupt): HAR through Fit and
// Predict, BenchAccel between repeats (one repeat of the float32 GEMM at
// 16384² takes seconds and is not cut short).
package repro
