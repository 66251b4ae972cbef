// Package viz holds plots as values: rasters, confusion matrices,
// response-time curves, time series and more. Each plot renders PNG and SVG
// and knows its MIME bundle, so a plot that is the last expression of a
// notebook cell shows itself (see package display).
//
// Status: arrives with issue 4; only the package boundary exists so far.
package viz
