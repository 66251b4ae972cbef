// Package train differentiates built models through time, and provides
// losses, metrics, optimisers, Keras-style Fit/Evaluate/Predict with
// callbacks, the rate↔spike swap (seed 000 §3.2–3.3) and the data-set
// loaders (MNIST IDX, UCI HAR).
//
// Status: arrives with issue 5; only the package boundary exists so far.
package train
