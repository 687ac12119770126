/* table.c: to be written. */
#include "gcol/gcol.h"
