//===- Passes.h - IMEX conversion passes ------------------------*- C++ -*-===//

#ifndef IMEX_CONVERSION_PASSES_H
#define IMEX_CONVERSION_PASSES_H

#include "imex/Conversion/DistToStandard/DistToStandard.h"
#include "imex/Conversion/GPUToHost/GPUToHost.h"
#include "imex/Conversion/LinalgToBlas/LinalgToBlas.h"
#include "imex/Conversion/MathToLibm/ComplexToLibm.h"
#include "imex/Conversion/MathToLibm/MathToLibm.h"
#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"
#include "imex/Conversion/RegionToGPU/RegionToGPU.h"

namespace imex {
#define GEN_PASS_REGISTRATION
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

#endif // IMEX_CONVERSION_PASSES_H
