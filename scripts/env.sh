# Sourced by the scripts: lets Open MPI's mpirun run as root (CI and
# containers) and oversubscribe the 2-core machines.
export OMPI_ALLOW_RUN_AS_ROOT=1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# One machine: Open MPI's shared-memory transport, which it selects here
# anyway, without probing the network ones first (UCX, OFI, PSM, openib,
# TCP): 0.2 s less per launch, of the 0.35 s an idle rank takes to start,
# over the ~1000 launches of a test run. Set them before sourcing this file
# to run across nodes.
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
export OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
export PATH="$(llvm-config-22 --bindir 2>/dev/null || echo /usr/lib/llvm-22/bin):$PATH"
