// RUN: imex-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unsupported ndarray element type 'si32'}}
func.func private @signed_int(!ndarray.ndarray<4xsi32>)

// -----

// expected-error @+1 {{unsupported ndarray element type 'i7'}}
func.func private @odd_width(!ndarray.ndarray<4xi7>)

// -----

// Complex numbers of f32 or f64 only (numpy's complex64 and complex128).
// expected-error @+1 {{unsupported ndarray element type 'complex<f16>'}}
func.func private @complex(!ndarray.ndarray<4xcomplex<f16>>)

// -----

// expected-error @+1 {{unsupported ndarray element type 'complex<i32>'}}
func.func private @complex_int(!ndarray.ndarray<4xcomplex<i32>>)

// -----

// expected-error @+1 {{ndarray has two environments of the same kind}}
func.func private @same_kind(!ndarray.ndarray<4xf32, #region.gpu_env<device = "a">, #region.gpu_env<device = "b">>)

// -----

// expected-error @+1 {{expected attribute value}}
func.func private @bad_environment(!ndarray.ndarray<4xf32, >)

// -----

// expected-error @+1 {{ndarray has more than 2^63 - 1 elements (the product of its static sizes overflows)}}
func.func private @too_many_elements(!ndarray.ndarray<4611686018427387904x4xf64>)
