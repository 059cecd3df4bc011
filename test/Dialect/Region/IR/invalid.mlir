// RUN: imex-opt %s -split-input-file -verify-diagnostics

func.func @yield_count(%i: index) {
  // expected-error @+1 {{yields 0 value(s) of types () but has result types ('index')}}
  %0 = region.env_region "env" -> index {
    region.env_region_yield
  }
  return
}

// -----

func.func @yield_type(%i: index, %j: i64) {
  // expected-error @+1 {{yields 1 value(s) of types ('i64') but has result types ('index')}}
  %0 = region.env_region "env" -> index {
    region.env_region_yield %j : i64
  }
  return
}

// -----

func.func @yield_parent(%i: index) {
  // expected-error @+1 {{expects parent op 'region.env_region'}}
  region.env_region_yield %i : index
}

// -----

func.func @block_arguments() {
  // expected-error @+1 {{region should have no arguments}}
  "region.env_region"() <{environment = "env"}> ({
  ^bb0(%x: index):
    region.env_region_yield
  }) : () -> ()
  return
}

// -----

// expected-error @+2 {{expected valid keyword}}
// expected-error @+1 {{expected a parameter name in struct}}
func.func private @gpu_env_device(!ndarray.ndarray<4xf32, #region.gpu_env<>>)
