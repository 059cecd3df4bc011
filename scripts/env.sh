# Sourced by the scripts: lets Open MPI's mpirun run as root (CI and
# containers) and oversubscribe the 2-core machines.
export OMPI_ALLOW_RUN_AS_ROOT=1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export PATH="$(llvm-config-22 --bindir 2>/dev/null || echo /usr/lib/llvm-22/bin):$PATH"
