/*
 * gcol quickstart: an end-to-end pipeline on generated data, in plain C.
 *
 * Builds a table of one million orders (id, amount with nulls, region as strings) on the
 * GPU under a statistics memory resource, then: slices it without copying and counts nulls;
 * keeps the orders above 400 (a comparison then a boolean mask); sorts them by amount,
 * largest first; sums and averages the amounts; counts the distinct regions; packs the
 * sorted orders into one buffer, serializes them to host bytes and unpacks them again; writes
 * them as a Parquet file, reads its footer's statistics and reads it back; joins
 * the orders to a generated customer table (customer = id mod 50,000, each customer in one of
 * three segments) and sums the revenue per segment with a groupby; and prints rows and the
 * memory used. Every call returns a gcol_status; on error gcol_last_error() says
 * what and where.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gcol/gcol.h"

#define CHECK(call)                                                                   \
  do {                                                                                \
    gcol_status check_status = (call);                                                \
    if (check_status != GCOL_OK) {                                                    \
      fprintf(stderr, "%s failed: %s: %s\n", #call, gcol_status_string(check_status), \
              gcol_last_error());                                                     \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

enum { NUM_ROWS = 1000000, NUM_REGIONS = 4, NUM_CUSTOMERS = 50000, NUM_SEGMENTS = 3 };

static const char *const regions[NUM_REGIONS] = {"north", "south", "east", "west"};
static const char *const segments[NUM_SEGMENTS] = {"retail", "wholesale", "online"};

/* Generated orders: ids 0.., amounts in [0, 500) with every 20th missing, four regions. */
static gcol_table *make_orders(gcol_stream stream) {
  int64_t *ids = malloc(sizeof(int64_t) * NUM_ROWS);
  double *amounts = malloc(sizeof(double) * NUM_ROWS);
  uint8_t *valid = malloc(NUM_ROWS);
  const char **names = malloc(sizeof(char *) * NUM_ROWS);
  uint64_t state = 42;
  for (int64_t i = 0; i < NUM_ROWS; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    ids[i] = i;
    amounts[i] = (double)(state >> 33) / (double)(1ull << 31) * 500.0;
    valid[i] = (state >> 20) % 20 != 0;
    names[i] = regions[(state >> 40) % NUM_REGIONS];
  }
  gcol_column *columns[3];
  CHECK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), NUM_ROWS, ids, NULL, stream,
                                     NULL, &columns[0]));
  CHECK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), NUM_ROWS, amounts, valid,
                                     stream, NULL, &columns[1]));
  CHECK(gcol_column_create_strings_from_host(NUM_ROWS, names, NULL, stream, NULL, &columns[2]));
  gcol_table *orders = NULL;
  CHECK(gcol_table_make(columns, 3, &orders));
  free(ids);
  free(amounts);
  free(valid);
  free(names);
  return orders;
}

static void print_rows(gcol_table_view t, int64_t count, gcol_stream stream) {
  int64_t ids[8];
  double amounts[8];
  uint8_t valid[8];
  gcol_column_view head[3];
  gcol_table_view h;
  CHECK(gcol_table_view_slice(t, 0, count, head, &h));
  CHECK(gcol_column_copy_to_host(h.columns[0], ids, NULL, stream));
  CHECK(gcol_column_copy_to_host(h.columns[1], amounts, valid, stream));
  gcol_host_strings *names = NULL;
  CHECK(gcol_column_strings_copy_to_host(h.columns[2], stream, &names));
  printf("  %8s  %8s  %s\n", "id", "amount", "region");
  for (int64_t i = 0; i < count; ++i) {
    char amount[32] = "null";
    if (valid[i]) snprintf(amount, sizeof amount, "%.2f", amounts[i]);
    printf("  %8lld  %8s  %.*s\n", (long long)ids[i], amount,
           (int)(names->offsets[i + 1] - names->offsets[i]), names->chars + names->offsets[i]);
  }
  gcol_host_strings_free(names);
}

/* Rows whose amount is above `threshold` (null amounts compare as null: dropped). */
static gcol_table *filter_large_orders(gcol_table_view orders, double threshold,
                                       gcol_stream stream) {
  gcol_scalar *limit = NULL;
  gcol_column *above = NULL;
  gcol_table *kept = NULL;
  CHECK(gcol_scalar_create_float(gcol_data_type_make(GCOL_FLOAT64), threshold, &limit));
  CHECK(gcol_binary_operation_column_scalar(orders.columns[1], limit, GCOL_BINARY_GREATER,
                                            gcol_data_type_make(GCOL_BOOL8), &above, stream, NULL));
  CHECK(gcol_apply_boolean_mask(orders, gcol_column_get_view(above), &kept, stream, NULL));
  gcol_column_free(above);
  gcol_scalar_free(limit);
  return kept;
}

static gcol_table *sort_by_amount_descending(gcol_table_view orders, gcol_stream stream) {
  gcol_table_view keys;
  gcol_table *sorted = NULL;
  gcol_order const order = GCOL_ORDER_DESCENDING;
  gcol_null_order const nulls = GCOL_NULLS_AFTER;
  CHECK(gcol_table_view_make(&orders.columns[1], 1, &keys));
  CHECK(gcol_sort_by_key(orders, keys, &order, &nulls, &sorted, stream, NULL));
  return sorted;
}

/* Total and mean amount (nulls skipped) and the number of distinct regions. */
static void summarize(gcol_table_view orders, gcol_stream stream) {
  gcol_scalar *total = NULL, *mean = NULL;
  double sum = 0, avg = 0;
  int64_t distinct_regions = 0;
  CHECK(gcol_reduce(orders.columns[1], GCOL_REDUCE_SUM, NULL, &total, stream));
  CHECK(gcol_reduce(orders.columns[1], GCOL_REDUCE_MEAN, NULL, &mean, stream));
  CHECK(gcol_scalar_get_float(total, &sum));
  CHECK(gcol_scalar_get_float(mean, &avg));
  gcol_table_view region;
  CHECK(gcol_table_view_make(&orders.columns[2], 1, &region));
  CHECK(gcol_distinct_count(region, GCOL_NULLS_EQUAL, &distinct_regions, stream));
  printf("amounts: total %.2f, mean %.4f; %lld distinct regions\n", sum, avg,
         (long long)distinct_regions);
  gcol_scalar_free(total);
  gcol_scalar_free(mean);
}

/* Packs a table into one device buffer, serializes it to host bytes (as a spill or a file
 * would), brings it back and unpacks zero-copy views: the rows come back unchanged. */
static void pack_round_trip(gcol_table_view orders, gcol_stream stream) {
  gcol_packed_table *packed = NULL, *restored = NULL;
  gcol_unpacked_table *views = NULL;
  uint8_t *bytes = NULL;
  size_t size = 0;
  CHECK(gcol_pack(orders, &packed, stream, NULL));
  CHECK(gcol_packed_table_serialize(packed, &bytes, &size, stream));
  gcol_packed_table_free(packed);
  CHECK(gcol_packed_table_deserialize(bytes, size, &restored, stream, NULL));
  free(bytes);
  CHECK(gcol_unpack(restored->metadata, restored->metadata_size, restored->data->data,
                    restored->data->size, &views));
  printf("packed and serialized: %.1f MiB; unpacked: %lld rows, %d columns\n",
         (double)size / (1 << 20), (long long)views->table.num_rows, (int)views->table.num_columns);
  print_rows(views->table, 3, stream);
  gcol_unpacked_table_free(views);
  gcol_packed_table_free(restored);
}

/* Writes a table as a Parquet file (here in host memory; gcol_parquet_write_file writes a
 * path), reads its statistics from the footer, and reads it back onto the GPU. */
static void parquet_round_trip(gcol_table_view orders, gcol_stream stream) {
  const char *const names[3] = {"id", "amount", "region"};
  gcol_parquet_write_options options;
  gcol_parquet_write_options_init(&options);
  options.column_names = names;
  void *file = NULL;
  int64_t size = 0;
  CHECK(gcol_parquet_write_buffer(orders, &options, &file, &size, stream));
  gcol_parquet_metadata *metadata = NULL;
  gcol_parquet_statistics amount;
  CHECK(gcol_parquet_metadata_read_buffer(file, size, &metadata));
  CHECK(gcol_parquet_metadata_statistics(metadata, 0, 1, &amount));
  printf("parquet: %.1f KiB, %lld rows; amount in [%.2f, %.2f], %lld nulls\n", (double)size / 1024,
         (long long)gcol_parquet_metadata_num_rows(metadata), amount.min_f64, amount.max_f64,
         (long long)amount.null_count);
  gcol_parquet_metadata_free(metadata);
  gcol_table *back = NULL;
  CHECK(gcol_parquet_read_buffer(file, size, NULL, &back, stream, NULL));
  gcol_parquet_buffer_free(file);
  printf("read back from parquet:\n");
  print_rows(gcol_table_get_view(back), 3, stream);
  gcol_table_free(back);
}

/* Customers: id 0..NUM_CUSTOMERS-1 and a segment (strings). */
static gcol_table *make_customers(gcol_stream stream) {
  int64_t *ids = malloc(sizeof(int64_t) * NUM_CUSTOMERS);
  const char **names = malloc(sizeof(char *) * NUM_CUSTOMERS);
  for (int64_t i = 0; i < NUM_CUSTOMERS; ++i) {
    ids[i] = i;
    names[i] = segments[(i * 7) % NUM_SEGMENTS];
  }
  gcol_column *columns[2];
  CHECK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), NUM_CUSTOMERS, ids, NULL,
                                     stream, NULL, &columns[0]));
  CHECK(
      gcol_column_create_strings_from_host(NUM_CUSTOMERS, names, NULL, stream, NULL, &columns[1]));
  gcol_table *customers = NULL;
  CHECK(gcol_table_make(columns, 2, &customers));
  free(ids);
  free(names);
  return customers;
}

/* Orders joined to their customers (customer = order id mod NUM_CUSTOMERS), then revenue,
 * mean order and order count per segment (groupby, sorted by segment). */
static void revenue_per_segment(gcol_table_view orders, gcol_stream stream) {
  gcol_scalar *modulus = NULL;
  gcol_column *customer = NULL;
  CHECK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), NUM_CUSTOMERS, &modulus));
  CHECK(gcol_binary_operation_column_scalar(orders.columns[0], modulus, GCOL_BINARY_MOD,
                                            gcol_data_type_make(GCOL_INT64), &customer, stream,
                                            NULL));
  gcol_column_view const order_view[2] = {gcol_column_get_view(customer), orders.columns[1]};
  gcol_table_view with_customer;
  CHECK(gcol_table_view_make(order_view, 2, &with_customer));
  gcol_table *customers = make_customers(stream);
  int32_t const on = 0;
  gcol_table *joined = NULL; /* customer, amount, segment */
  CHECK(gcol_join_tables(with_customer, &on, gcol_table_get_view(customers), &on, 1,
                         GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, true, &joined, stream, NULL));
  gcol_table_view const j = gcol_table_get_view(joined);
  printf("orders joined to %d customers: %lld rows, %d columns\n", NUM_CUSTOMERS,
         (long long)j.num_rows, (int)j.num_columns);

  gcol_groupby_agg const aggs[3] = {gcol_groupby_agg_make(GCOL_GROUPBY_SUM),
                                    gcol_groupby_agg_make(GCOL_GROUPBY_MEAN),
                                    gcol_groupby_agg_make(GCOL_GROUPBY_COUNT_ALL)};
  gcol_groupby_request const request = {j.columns[1], aggs, 3};
  gcol_groupby_options options;
  memset(&options, 0, sizeof options);
  options.sort_keys = true;
  gcol_table_view segment;
  CHECK(gcol_table_view_make(&j.columns[2], 1, &segment));
  gcol_groupby_result *res = NULL;
  CHECK(gcol_groupby_aggregate(segment, &request, 1, &options, &res, stream, NULL));
  gcol_table_view const keys = gcol_table_get_view(res->keys);
  int64_t const groups = keys.num_rows;
  double *sums = malloc(sizeof(double) * (size_t)groups),
         *means = malloc(sizeof(double) * (size_t)groups);
  int64_t *counts = malloc(sizeof(int64_t) * (size_t)groups);
  gcol_host_strings *names = NULL;
  CHECK(gcol_column_copy_to_host(gcol_column_get_view(res->columns[0]), sums, NULL, stream));
  CHECK(gcol_column_copy_to_host(gcol_column_get_view(res->columns[1]), means, NULL, stream));
  CHECK(gcol_column_copy_to_host(gcol_column_get_view(res->columns[2]), counts, NULL, stream));
  CHECK(gcol_column_strings_copy_to_host(keys.columns[0], stream, &names));
  printf("revenue per segment (groupby):\n  %-10s %14s %10s %8s\n", "segment", "revenue", "mean",
         "orders");
  for (int64_t g = 0; g < groups; ++g) {
    printf("  %-10.*s %14.2f %10.4f %8lld\n", (int)(names->offsets[g + 1] - names->offsets[g]),
           names->chars + names->offsets[g], sums[g], means[g], (long long)counts[g]);
  }
  gcol_host_strings_free(names);
  free(sums);
  free(means);
  free(counts);
  gcol_groupby_result_free(res);
  gcol_table_free(joined);
  gcol_table_free(customers);
  gcol_column_free(customer);
  gcol_scalar_free(modulus);
}

int main(void) {
  if (gcol_device_count() == 0) {
    printf("gcol quickstart: no CUDA device found; gcol's operations need a GPU.\n");
    return 0;
  }
  cudaStream_t cuda_stream;
  if (cudaStreamCreate(&cuda_stream) != cudaSuccess) return 1;
  gcol_stream const stream = (gcol_stream)cuda_stream;

  /* Every allocation below goes through a statistics resource over the default. */
  gcol_mr *stats = NULL;
  CHECK(gcol_mr_statistics_create(gcol_mr_get_default(), &stats));
  CHECK(gcol_mr_set_default(stats, NULL));

  gcol_table *orders = make_orders(stream);
  gcol_table_view const all = gcol_table_get_view(orders);
  printf("orders: %lld rows, %d columns\n", (long long)all.num_rows, (int)all.num_columns);
  print_rows(all, 5, stream);

  /* Zero-copy slice of the second half, then its null count (counted on the GPU). */
  gcol_column_view half[3];
  gcol_table_view second;
  CHECK(gcol_table_view_slice(all, NUM_ROWS / 2 + 3, NUM_ROWS, half, &second));
  int64_t nulls = 0;
  CHECK(gcol_column_view_null_count(second.columns[1], stream, &nulls));
  printf("slice [%d, %d): %lld rows, %lld null amounts\n", NUM_ROWS / 2 + 3, NUM_ROWS,
         (long long)second.num_rows, (long long)nulls);

  /* Deep copy of the slice: compacted to offset 0, strings rebased. */
  gcol_table *copy = NULL;
  CHECK(gcol_table_copy(second, stream, NULL, &copy));
  printf("deep copy of the slice:\n");
  print_rows(gcol_table_get_view(copy), 3, stream);
  gcol_table_free(copy);

  gcol_table *big = filter_large_orders(all, 400.0, stream);
  gcol_table *sorted = sort_by_amount_descending(gcol_table_get_view(big), stream);
  printf("orders above 400, largest first: %lld\n", (long long)big->num_rows);
  print_rows(gcol_table_get_view(sorted), 5, stream);
  summarize(all, stream);
  pack_round_trip(gcol_table_get_view(sorted), stream);
  parquet_round_trip(gcol_table_get_view(sorted), stream);
  revenue_per_segment(all, stream);

  gcol_table_free(sorted);
  gcol_table_free(big);
  gcol_table_free(orders);
  gcol_mr_statistics s;
  CHECK(gcol_mr_statistics_get(stats, &s));
  printf("memory: peak %.1f MiB in %lld allocations, %lld bytes still allocated\n",
         (double)s.peak_bytes / (1 << 20), (long long)s.total_allocations,
         (long long)s.current_bytes);
  CHECK(gcol_mr_set_default(NULL, NULL));
  gcol_mr_destroy(stats);
  cudaStreamDestroy(cuda_stream);
  return s.current_bytes == 0 ? 0 : 1;
}
