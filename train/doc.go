// Package train differentiates built models through time, and provides
// losses, metrics, optimisers, Keras-style Fit/Evaluate/Predict with
// callbacks, the rate↔spike swap (seed 000 §3.2–3.3) and the data-set
// loaders (MNIST IDX, UCI HAR).
//
// Status: being built with issue 5. So far only train/data exists (IDX
// files, MNIST and Fashion-MNIST, batches); the rest arrives with issue 5.
package train
