// Package sim builds toolkit descriptions into signals and operators (as
// Nengo's builder does, seed 000 §2.2), optimises the operator graph (merging,
// planning, signal sorting: seed 000 Algorithms 1–2) and executes it on the
// CPU. It defines the Backend interface that package accel implements.
//
// Status: arrives with issue 3; only the package boundary exists so far.
package sim
