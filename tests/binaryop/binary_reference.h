/*
 * Plain-C reference of binary operations on numeric operands (binaryop.h rules restated):
 * one row at a time, from host values to the output's storage bytes and validity.
 */
#ifndef GCOL_TESTS_BINARY_REFERENCE_H
#define GCOL_TESTS_BINARY_REFERENCE_H

#include "ops_support.h"

/* The reference of row (li of l, ri of r). *approx is set when the result may differ from
 * the correctly rounded one (POW on floats). */
void ref_binary_numeric(gcol_binary_op op, const ops_host_col *l, int64_t li,
                        const ops_host_col *r, int64_t ri, gcol_data_type out,
                        unsigned char *out_bytes, bool *valid, bool *approx);

#endif /* GCOL_TESTS_BINARY_REFERENCE_H */
