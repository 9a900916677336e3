// The only C++ in Tern: libosmium behind the C API of include/tern_osmium.h.
#include "tern_osmium.h"

#include <osmium/handler.hpp>
#include <osmium/handler/node_locations_for_ways.hpp>
#include <osmium/index/map/flex_mem.hpp>
#include <osmium/io/any_input.hpp>
#include <osmium/visitor.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

struct StopReading {};  // thrown from a handler when a callback asks to stop

using Index = osmium::index::map::FlexMem<osmium::unsigned_object_id_type, osmium::Location>;
using LocationHandler = osmium::handler::NodeLocationsForWays<Index>;

bool has_any_key(const osmium::TagList &tags, const char *const *keys) {
    if (keys == nullptr) return true;
    for (const char *const *k = keys; *k != nullptr; ++k) {
        if (tags.has_key(*k)) return true;
    }
    return false;
}

struct TagBuffer {
    std::vector<const char *> keys, values;
    tern_osm_tags fill(const osmium::TagList &tags) {
        keys.clear();
        values.clear();
        for (const auto &tag : tags) {
            keys.push_back(tag.key());
            values.push_back(tag.value());
        }
        return tern_osm_tags{keys.size(), keys.data(), values.data()};
    }
};

class Forwarder : public osmium::handler::Handler {
public:
    Forwarder(const tern_osm_handlers &h, tern_osm_stats &s) : h_(h), stats_(s) {}

    void node(const osmium::Node &n) {
        ++stats_.nodes;
        if (h_.node == nullptr || n.tags().empty()) return;
        tern_osm_node out{};
        out.id = n.id();
        const auto loc = n.location();
        out.lon = loc.valid() ? loc.lon() : NAN;
        out.lat = loc.valid() ? loc.lat() : NAN;
        out.tags = tags_.fill(n.tags());
        if (h_.node(&out, h_.ctx) != 0) throw StopReading{};
    }

    void way(const osmium::Way &w) {
        ++stats_.ways;
        if (h_.way == nullptr) return;
        if (!has_any_key(w.tags(), h_.way_keys)
            && (h_.way_ids == nullptr || !std::binary_search(h_.way_ids, h_.way_ids + h_.way_id_count, static_cast<int64_t>(w.id())))) {
            return;
        }
        ids_.clear();
        lons_.clear();
        lats_.clear();
        for (const auto &nr : w.nodes()) {
            ids_.push_back(nr.ref());
            const auto loc = nr.location();
            if (loc.valid()) {
                lons_.push_back(loc.lon());
                lats_.push_back(loc.lat());
            } else {
                ++stats_.missing_locations;
                lons_.push_back(NAN);
                lats_.push_back(NAN);
            }
        }
        tern_osm_way out{};
        out.id = w.id();
        out.tags = tags_.fill(w.tags());
        out.node_count = ids_.size();
        out.node_ids = ids_.data();
        out.lons = lons_.data();
        out.lats = lats_.data();
        if (h_.way(&out, h_.ctx) != 0) throw StopReading{};
    }

    void relation(const osmium::Relation &r) {
        ++stats_.relations;
        if (h_.relation == nullptr || !has_any_key(r.tags(), h_.relation_keys)) return;
        types_.clear();
        refs_.clear();
        roles_.clear();
        for (const auto &m : r.members()) {
            char t = 'n';
            if (m.type() == osmium::item_type::way) t = 'w';
            else if (m.type() == osmium::item_type::relation) t = 'r';
            types_.push_back(t);
            refs_.push_back(m.ref());
            roles_.push_back(m.role());
        }
        tern_osm_relation out{};
        out.id = r.id();
        out.tags = tags_.fill(r.tags());
        out.member_count = refs_.size();
        out.member_types = types_.data();
        out.member_refs = refs_.data();
        out.member_roles = roles_.data();
        if (h_.relation(&out, h_.ctx) != 0) throw StopReading{};
    }

private:
    const tern_osm_handlers &h_;
    tern_osm_stats &stats_;
    TagBuffer tags_;
    std::vector<int64_t> ids_, refs_;
    std::vector<double> lons_, lats_;
    std::vector<char> types_;
    std::vector<const char *> roles_;
};

void set_error(char *buf, size_t len, const std::string &msg) {
    if (buf == nullptr || len == 0) return;
    std::snprintf(buf, len, "%s", msg.c_str());
}

}  // namespace

extern "C" int tern_osm_read(const char *path, const tern_osm_handlers *handlers, tern_osm_stats *stats,
                             char *errbuf, size_t errbuf_len) {
    if (errbuf != nullptr && errbuf_len > 0) errbuf[0] = '\0';
    tern_osm_stats local{};
    local.bbox[0] = local.bbox[1] = local.bbox[2] = local.bbox[3] = NAN;
    try {
        if (path == nullptr || handlers == nullptr) {
            set_error(errbuf, errbuf_len, "no file or handlers given");
            return -1;
        }
        osmium::io::File file{path};
        const auto entities = handlers->relations_only != 0 ? osmium::osm_entity_bits::relation : osmium::osm_entity_bits::all;
        osmium::io::Reader reader{file, entities};
        const auto header = reader.header();
        const auto box = header.box();
        if (box.valid()) {
            local.bbox[0] = box.bottom_left().lon();
            local.bbox[1] = box.bottom_left().lat();
            local.bbox[2] = box.top_right().lon();
            local.bbox[3] = box.top_right().lat();
        }
        Index index;
        LocationHandler locations{index};
        locations.ignore_errors();
        Forwarder forward{*handlers, local};
        int result = 0;
        try {
            while (osmium::memory::Buffer buffer = reader.read()) {
                if (handlers->relations_only != 0) {
                    osmium::apply(buffer, forward);
                } else {
                    osmium::apply(buffer, locations, forward);
                }
                if (handlers->progress != nullptr) {
                    handlers->progress(reader.offset(), reader.file_size(), handlers->ctx);
                }
            }
        } catch (const StopReading &) {
            result = 1;
        }
        reader.close();
        if (stats != nullptr) *stats = local;
        return result;
    } catch (const std::exception &e) {
        set_error(errbuf, errbuf_len, e.what());
    } catch (...) {
        set_error(errbuf, errbuf_len, "unknown error while reading OSM data");
    }
    if (stats != nullptr) *stats = local;
    return -1;
}
