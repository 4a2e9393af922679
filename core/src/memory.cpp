#include "spikeminer/core/memory.hpp"

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

namespace spikeminer {
namespace {

constexpr std::size_t kUnknown = std::numeric_limits<std::size_t>::max();

// A "Key:   123 kB" line of a /proc file, in bytes; kUnknown when it is not there.
std::size_t proc_kib(const char* file, const std::string& key) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) != 0) continue;
        std::istringstream fields(line.substr(key.size()));
        std::size_t kib = 0;
        if (fields >> kib) return kib * 1024;
    }
    return kUnknown;
}

// A file holding one number ("max" or missing: kUnknown).
std::size_t file_number(const std::string& path) {
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text == "max") return kUnknown;
    try {
        return static_cast<std::size_t>(std::stoull(text));
    } catch (const std::exception&) {
        return kUnknown;
    }
}

// What this process's cgroup (v2, else v1's memory controller) still allows.
std::size_t cgroup_room() {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        std::size_t limit = kUnknown;
        std::size_t used = 0;
        if (controllers.empty()) {  // v2
            limit = file_number("/sys/fs/cgroup" + path + "/memory.max");
            used = file_number("/sys/fs/cgroup" + path + "/memory.current");
        } else if (controllers.find("memory") != std::string::npos) {
            limit = file_number("/sys/fs/cgroup/memory" + path + "/memory.limit_in_bytes");
            used = file_number("/sys/fs/cgroup/memory" + path + "/memory.usage_in_bytes");
        }
        if (limit == kUnknown) continue;
        if (used == kUnknown) used = 0;
        return limit > used ? limit - used : 0;
    }
    return kUnknown;
}

// What a resource limit (ulimit) leaves of `used` bytes.
std::size_t rlimit_room(int resource, std::size_t used) {
    rlimit limit{};
    if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kUnknown;
    const auto cap = static_cast<std::size_t>(limit.rlim_cur);
    return cap > used ? cap - used : 0;
}

}  // namespace

std::size_t available_host_memory() {
    std::size_t room = proc_kib("/proc/meminfo", "MemAvailable:");
    if (room == kUnknown) room = static_cast<std::size_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGE_SIZE));
    room = std::min(room, cgroup_room());
    const std::size_t size = proc_kib("/proc/self/status", "VmSize:");
    if (size != kUnknown) room = std::min(room, rlimit_room(RLIMIT_AS, size));
    const std::size_t data = proc_kib("/proc/self/status", "VmData:");
    if (data != kUnknown) room = std::min(room, rlimit_room(RLIMIT_DATA, data));
    return room;
}

std::size_t host_memory_budget(std::size_t given) {
    if (given != 0) return given;
    return static_cast<std::size_t>(kDefaultBudgetShare * static_cast<double>(available_host_memory()));
}

std::size_t parse_bytes(const std::string& text, const std::string& what) {
    const auto refuse = [&] {
        return UsageError(what + ": '" + text.substr(0, 40) + "' is not a size; give bytes or a number with K, M, G or T (e.g. 4G)");
    };
    std::size_t used = 0;
    double number = 0;
    try {
        number = std::stod(text, &used);
    } catch (const std::exception&) {
        throw refuse();
    }
    std::string unit = text.substr(used);
    std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (unit == "b") unit.clear();
    if (unit.size() > 1 && (unit.substr(1) == "ib" || unit.substr(1) == "b")) unit = unit.substr(0, 1);
    double scale = 1;
    if (unit == "k") scale = 1024.0;
    else if (unit == "m") scale = 1024.0 * 1024;
    else if (unit == "g") scale = 1024.0 * 1024 * 1024;
    else if (unit == "t") scale = 1024.0 * 1024 * 1024 * 1024;
    else if (!unit.empty()) throw refuse();
    const double bytes = number * scale;
    if (!(bytes >= 1) || !std::isfinite(bytes) || bytes >= 9.0e18) {
        throw UsageError(what + ": '" + text.substr(0, 40) + "' must be at least one byte and under 8 EiB");
    }
    return static_cast<std::size_t>(bytes);
}

std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 4) {
        bytes /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 || bytes >= 100 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
    return text;
}

std::size_t peak_memory() {
    const std::size_t peak = proc_kib("/proc/self/status", "VmHWM:");
    return peak == kUnknown ? 0 : peak;
}

void reset_peak_memory() {
    malloc_trim(0);  // what earlier stages freed goes back first, so that the new peak is the stage's own
    std::ofstream("/proc/self/clear_refs") << "5";
}

}  // namespace spikeminer
