#include "host_tables.h"

static const uint16_t stage1[] = GCOL_DETAIL_UNICODE_STAGE1;
static const uint16_t stage2[] = GCOL_DETAIL_UNICODE_STAGE2;
static const gcol_detail_unicode_record records[] = GCOL_DETAIL_UNICODE_RECORDS;

gcol_detail_unicode_tables gcol_test_unicode_tables(void) {
  gcol_detail_unicode_tables t;
  t.stage1 = stage1;
  t.stage2 = stage2;
  t.records = records;
  return t;
}
