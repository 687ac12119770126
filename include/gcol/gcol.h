/**
 * @file gcol.h
 * @ingroup gcol_core
 * @brief The whole public C API of gcol in one include.
 *
 * Device-side primitives for custom kernels are in `gcol/device/` (.cuh, need nvcc).
 */
#ifndef GCOL_GCOL_H
#define GCOL_GCOL_H

#include "gcol/config.h"
#include "gcol/status.h"
#include "gcol/log.h"
#include "gcol/types.h"
#include "gcol/memory.h"
#include "gcol/buffer.h"
#include "gcol/spill.h"
#include "gcol/bits.h"
#include "gcol/bitmask.h"
#include "gcol/column.h"
#include "gcol/table.h"
#include "gcol/frame.h"
#include "gcol/scalar.h"
#include "gcol/indexalator.h"
#include "gcol/string_view.h"
#include "gcol/sorting.h"
#include "gcol/search.h"
#include "gcol/reduction.h"
#include "gcol/groupby.h"
#include "gcol/join.h"
#include "gcol/frame_ops.h"
#include "gcol/scan.h"
#include "gcol/binaryop.h"
#include "gcol/unaryop.h"
#include "gcol/cast.h"
#include "gcol/datetime.h"
#include "gcol/copying.h"
#include "gcol/expression.h"
#include "gcol/filtering.h"
#include "gcol/filling.h"
#include "gcol/null_ops.h"
#include "gcol/pack.h"
#include "gcol/hashing.h"
#include "gcol/partitioning.h"
#include "gcol/interop.h"
#include "gcol/strings/attributes.h"
#include "gcol/strings/case.h"
#include "gcol/strings/combine.h"
#include "gcol/strings/convert.h"
#include "gcol/strings/edit.h"
#include "gcol/strings/find.h"
#include "gcol/strings/like.h"
#include "gcol/strings/split.h"
#include "gcol/strings/regex.h"
#include "gcol/io/parquet.h"
#include "gcol/io/csv.h"
#include "gcol/io/staging.h"

#include "gcol/typed_view.h"
#include "gcol/accessors.h"
#include "gcol/hash.h"
#include "gcol/probe.h"
#include "gcol/utf8.h"
#endif /* GCOL_GCOL_H */
