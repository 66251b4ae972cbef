// Package jit is the just-in-time execution graph of the emulated analog
// accelerator, as hxtorch executes operations on BrainScaleS-2 (§3.2 and
// Figs 4–5 of "hxtorch: PyTorch for BrainScaleS-2 — Perceptrons on Analog
// Neuromorphic Hardware", Spilger et al., 2020; the hxtorch paper below).
//
// An operation too large for one synapse array is split into execution
// instances. Every instance is a sequence of four tasks — Preprocess
// (quantise, reshape, im2col), Build (the instruction stream), Execute (the
// run on an accelerator chip) and Postprocess (decode the measured
// results) — and instances are linked in a dependency graph whose edges
// are the stores and loads of measured activations between them.
//
// The graph is built with a static-single-assignment builder: Add returns
// the new instance's ID and accepts only IDs that already exist as
// dependencies, so a graph can never contain a cycle.
//
//	g := jit.NewGraph()
//	a, _ := g.Add(jit.Task{Name: "mm[0,0]", Execute: runA})
//	b, _ := g.Add(jit.Task{Name: "mm[1,0]", Resource: 1, Execute: runB})
//	_, _ = g.Add(jit.Task{Name: "add", Postprocess: sum}, a, b)
//	tr, err := g.Run(ctx, jit.Options{Trace: true})
//
// # Scheduling
//
// Run executes instances just in time. An instance becomes ready when all
// its dependencies have finished Postprocess. Its host stages (Preprocess
// and Build, later Postprocess) run on a pool of Options.Workers host
// goroutines; its Execute runs on the single queue of its hardware unit
// (Task.Resource), so Execute calls on one resource never overlap while
// different resources run concurrently. Host stages of instances that do
// not depend on each other overlap with Execute of others, which keeps the
// hardware busy (the overlap of Fig 5). Among ready work, host workers and
// resource queues pick the instance added first, so a graph run with one
// worker and one resource executes in a reproducible order.
//
// The first error, panic or context cancellation stops scheduling new
// work; Run waits for the tasks already running (a task is never
// interrupted: long tasks should watch the context themselves) and returns
// an error naming the instance and the stage, e.g.
// `jit: instance "mm[1,0]": execute: link down`. The process's interrupt
// flag (package interrupt) stops a run as a cancellation does, with an
// error wrapping interrupt.ErrInterrupted. Run leaves no goroutine
// behind and may be called again; Add may be called between runs (a run
// works on the instances present when it started).
//
// # Traces and links
//
// With Options.Trace, Run records a Span per stage (times since Run began).
// Trace reports the summed time per stage, the Execute time and
// utilisation of each resource, the time during which host stages
// overlapped with Execute, and draws a Gantt chart like Fig 5 (right).
//
// Link gives the transfer time of the two links that bound the MAC rate in
// Fig 8 of the hxtorch paper: the 1 Gbit/s host link and the 8 Gbit/s chip
// I/O.
//
// The exported API is non-generic so the notebook interpreter can bind it.
package jit
