package engine

import "math"

// Dense symmetric positive definite algebra for the ratings fit: a
// Cholesky factor L (a = L·Lᵀ), stored by rows. A thousand players is a
// 1,000 × 1,000 matrix, a third of a billion multiply-adds to factor.

// lowerMatrix is a lower-triangular n × n matrix of zeros, by rows.
func lowerMatrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, i+1)
	}
	return m
}

// choleskyInto factors a (of which it reads the lower triangle: a lowerMatrix
// will do) into l (from lowerMatrix) and returns l. A pivot
// that is not positive (a matrix singular to rounding) is replaced by a
// tiny one, so the factor always exists.
func choleskyInto(a, l [][]float64) [][]float64 {
	n := len(a)
	for i := range n {
		li := l[i]
		for j := 0; j <= i; j++ {
			lj := l[j]
			sum := a[i][j]
			for k := range j {
				sum -= li[k] * lj[k]
			}
			if i == j {
				li[i] = math.Sqrt(max(sum, 1e-12))
			} else {
				li[j] = sum / lj[j]
			}
		}
	}
	return l
}

// cholSolve solves L·Lᵀ·x = b.
func cholSolve(l [][]float64, b []float64) []float64 {
	n := len(l)
	y := make([]float64, n)
	for i := range n {
		sum := b[i]
		for k := range i {
			sum -= l[i][k] * y[k]
		}
		y[i] = sum / l[i][i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		sum := y[i]
		for k := i + 1; k < n; k++ {
			sum -= l[k][i] * x[k]
		}
		x[i] = sum / l[i][i]
	}
	return x
}

// invertLower overwrites l, the Cholesky factor of a matrix a, with the
// lower triangle of a⁻¹ (which is symmetric), via L⁻¹: a⁻¹ = L⁻ᵀ·L⁻¹.
func invertLower(l [][]float64) [][]float64 {
	n := len(l)
	m := lowerMatrix(n) // L⁻¹, column by column
	for j := range n {
		m[j][j] = 1 / l[j][j]
		for i := j + 1; i < n; i++ {
			sum := 0.0
			for k := j; k < i; k++ {
				sum -= l[i][k] * m[k][j]
			}
			m[i][j] = sum / l[i][i]
		}
	}
	inv := l // l is read no more: m holds all of it that is needed
	for i := range n {
		for j := 0; j <= i; j++ {
			sum := 0.0
			for k := i; k < n; k++ { // (L⁻ᵀL⁻¹)_ij = Σ_k m[k][i]·m[k][j], k ≥ max(i,j)
				sum += m[k][i] * m[k][j]
			}
			inv[i][j] = sum
		}
	}
	return inv
}
