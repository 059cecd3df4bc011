// RUN: imex-opt %s -split-input-file -lower-distruntime-to-idtr -verify-diagnostics

// expected-error @+1 {{'func.func' op declares the IDTR function '_idtr_nprocs' with type '(i32) -> i32', but lower-distruntime-to-idtr calls it with type '(i64) -> i64'}}
func.func private @_idtr_nprocs(i32) -> i32
func.func @conflicting_declaration() -> index {
  %n = distruntime.team_size team = 1
  return %n : index
}

// -----

// expected-error @+1 {{'memref.global' op defines the symbol '_idtr_prank', which lower-distruntime-to-idtr needs for the IDTR function of that name}}
memref.global @_idtr_prank : memref<i64>
func.func @symbol_taken() -> index {
  %r = distruntime.team_member team = 1
  return %r : index
}
