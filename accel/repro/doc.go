// Package repro reproduces the analog-accelerator results of seed 002
// (hxtorch on BrainScaleS-2) with neurogo's emulated chip: the MAC-rate
// measurements of Fig 8 (BenchAccel, `neurogo bench accel`) and the
// human-activity-recognition experiment of §4.2, Table 1 and Fig 9
// (HAR, `neurogo repro har-analog`). It is an application package: it
// ties accel/analog to train, train/data and viz.
package repro
