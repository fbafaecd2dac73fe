//go:build !linux

package main

// Memory is read from /proc on Linux only; elsewhere it reads as 0.
func resetPeakRSS()      {}
func rssMB() float64     { return 0 }
func peakRSSMB() float64 { return 0 }
