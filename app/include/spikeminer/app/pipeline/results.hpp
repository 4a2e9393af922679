#pragma once
// The results of a pipeline run, in one folder written all at once.

#include "spikeminer/app/pipeline/pipeline.hpp"

#include <string>
#include <vector>

namespace spikeminer::pipeline {

/// Throws UsageError when `dir` is an existing file or a folder that is not empty, or when
/// it is the run's input; the results never replace anything.
void check_results_dir(const std::string& dir, const RunConfig& config);

/// Removes `dir` when it holds only what write_results writes (a previous run's results);
/// does nothing when it does not exist; throws UsageError when it holds anything else.
void remove_previous_results(const std::string& dir);

/// summary.json's text: the input, the settings as applied, what was found, each stage's
/// time, backend and peak memory, and the recovery of a simulation's ground truth.
std::string summary_text(const Input& input, const RunConfig& config, const PipelineResult& result);

/// assemblies.csv, windows.csv and episodes.csv of `result` into the folder `dir`, each
/// written under a temporary name and renamed into place (a live session's latest).
void write_result_tables(const std::string& dir, const SpikeTrains& trains, const PipelineResult& result);

/// Writes the run's results into `dir`, all or nothing (into a temporary folder beside it,
/// renamed into place at the end): results.h5 (episodes, windows, edge changes,
/// assemblies, events, the run's settings, the program version, the input's name and
/// checksum; its layout is in the README), summary.json, assemblies.csv, episodes.csv,
/// windows.csv, with config.nwb results.nwb (results_nwb.cpp), and, in a build with figures, three figures as SVG and PNG: raster (the
/// first `figure_seconds` with the assemblies' members grouped and coloured), timeline
/// (one row per assembly, bars where it is active) and graph (the co-firing graph of the
/// busiest window). Returns the names of the files written. Throws Error naming the file
/// that could not be written, Cancelled when `progress` says so.
std::vector<std::string> write_results(const std::string& dir, const Input& input, const RunConfig& config, const PipelineResult& result,
                                       Progress* progress, double figure_seconds = 10);

}  // namespace spikeminer::pipeline
