// idtr_mpi.hpp - C++ conveniences of libidtr that need <mpi.h>.
// Kept separate from idtr.h so that code calling the C ABI does not need MPI
// headers.
#ifndef IDTR_IDTR_MPI_HPP
#define IDTR_IDTR_MPI_HPP

#include "idtr/idtr.h"
#include <mpi.h>

namespace idtr {

/// Register an application communicator as an IDTR team (collective over
/// `comm`). The runtime works on a duplicate of `comm`, so its messages never
/// mix with the application's. Returns the team id to pass to entry points.
inline int64_t register_comm(MPI_Comm comm) {
  return _idtr_register_team(static_cast<int64_t>(MPI_Comm_c2f(comm)));
}

} // namespace idtr

#endif // IDTR_IDTR_MPI_HPP
