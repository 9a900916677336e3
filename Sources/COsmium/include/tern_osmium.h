/* tern_osmium: a plain C view of libosmium's OSM reader (PBF, XML, .gz, .bz2) for Swift.
 *
 * libosmium is C++ templates; Swift cannot import its Reader or handler machinery, and C++
 * interop would spread to every Swift target. So the C++ lives in tern_osmium.cpp behind this
 * header, every C++ exception is caught inside tern_osm_read, and errors come back as text.
 *
 * Pointers handed to a callback are valid only during that callback; copy what you keep.
 * A callback returns 0 to go on, non-zero to stop reading early (tern_osm_read then returns 1).
 */
#ifndef TERN_OSMIUM_H
#define TERN_OSMIUM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t count;
    const char *const *keys;
    const char *const *values;
} tern_osm_tags;

typedef struct {
    int64_t id;
    double lon, lat;
    tern_osm_tags tags;
} tern_osm_node;

typedef struct {
    int64_t id;
    tern_osm_tags tags;
    size_t node_count;
    const int64_t *node_ids;
    const double *lons; /* NaN where the file has no location for a node */
    const double *lats;
} tern_osm_way;

typedef struct {
    int64_t id;
    tern_osm_tags tags;
    size_t member_count;
    const char *member_types; /* 'n', 'w' or 'r' per member */
    const int64_t *member_refs;
    const char *const *member_roles;
} tern_osm_relation;

typedef int (*tern_osm_node_cb)(const tern_osm_node *, void *ctx);
typedef int (*tern_osm_way_cb)(const tern_osm_way *, void *ctx);
typedef int (*tern_osm_relation_cb)(const tern_osm_relation *, void *ctx);
/* bytes read so far and the file size (0 when unknown) */
typedef void (*tern_osm_progress_cb)(uint64_t offset, uint64_t size, void *ctx);

typedef struct {
    /* Called for nodes that carry at least one tag; NULL: nodes are not reported. */
    tern_osm_node_cb node;
    /* Called for ways having at least one of way_keys (a NULL-terminated list; NULL: every way),
     * and for the ways whose ids are in way_ids (ascending, way_id_count of them) whatever their
     * tags: the members of relations found in an earlier relations-only pass. */
    tern_osm_way_cb way;
    const char *const *way_keys;
    const int64_t *way_ids;
    size_t way_id_count;
    /* Called for relations having at least one of relation_keys (NULL-terminated; NULL: every one). */
    tern_osm_relation_cb relation;
    const char *const *relation_keys;
    tern_osm_progress_cb progress;
    void *ctx;
    /* Non-zero: read the relations only (no node locations kept; nodes and ways not reported). */
    int relations_only;
} tern_osm_handlers;

typedef struct {
    uint64_t nodes, ways, relations;   /* objects in the file */
    uint64_t missing_locations;        /* way node references without a location */
    double bbox[4];                    /* header bounding box min lon, min lat, max lon, max lat; NaN if absent */
} tern_osm_stats;

/* Reads the file once. Returns 0 when read to the end, 1 when a callback stopped it,
 * -1 on error with a one-line message in errbuf (always NUL-terminated). */
int tern_osm_read(const char *path, const tern_osm_handlers *handlers, tern_osm_stats *stats,
                  char *errbuf, size_t errbuf_len);

#ifdef __cplusplus
}
#endif
#endif
