"""results.nwb: the input NWB file copied with the results added, or a new NWB file of a
recording's units; read back with h5py, and validated by hdmf against the file's cached
NWB specifications."""
import hashlib
import shutil
import warnings

import h5py
import numpy as np

import spikeminer
from conftest import DATA, read_csv, run_cli


def ragged(group, name):
    data, ends = group[name][()], group[name + "_index"][()]
    return [data[start:end] for start, end in zip(np.concatenate([[0], ends[:-1]]), ends)]


def nwb_attrs(obj):
    return obj.attrs["neurodata_type"], obj.attrs["namespace"]


def check_module(path, folder):
    """The module's tables against the folder's CSV files."""
    with h5py.File(path, "r") as f:
        module = f["processing/spikeminer"]
        assert nwb_attrs(module) == ("ProcessingModule", "core")
        table = module["assemblies"]
        assert nwb_attrs(table) == ("DynamicTable", "hdmf-common")
        assert nwb_attrs(table["members"]) == ("DynamicTableRegion", "hdmf-common")
        assert f[table["members"].attrs["table"]] == f["units"]
        assert f[table["members_index"].attrs["target"]] == table["members"]
        unit_ids = f["units/id"][()]
        labels = f["units/label"][()].astype(str) if "label" in f["units"] else unit_ids.astype(str)
        rows = read_csv(folder / "assemblies.csv")
        assert table["id"][()].tolist() == [int(r["id"]) for r in rows]
        assert [[labels[i] for i in m] for m in ragged(table, "members")] == [r["members"].split() for r in rows]
        assert [len(a) for a in ragged(table, "activation_times")] == [int(r["activations"]) for r in rows]
        windows = ragged(table, "windows")
        assert [len(w) for w in windows] == [int(r["windows"]) for r in rows]
        assert [(w[0], w[-1]) for w in windows] == [(int(r["first_window"]), int(r["last_window"])) for r in rows]
        assert np.allclose(table["start_time"][()], [float(r["start_s"]) for r in rows])
        periods = module["active_periods"]
        assert nwb_attrs(periods) == ("TimeIntervals", "core")
        assert f[periods["assembly"].attrs["table"]] == table
        owner = periods["assembly"][()]
        spans = np.stack([periods["start_time"][()], periods["stop_time"][()]], axis=1)
        for i, r in enumerate(rows):  # active_s: "start-end" of each active period, space-separated
            expected = [[float(x) for x in p.split("-")] for p in r["active_s"].split()]
            assert np.allclose(spans[owner == i], np.reshape(expected, (-1, 2)))
        episodes = read_csv(folder / "episodes.csv")
        assert module["episodes/episode"][()].astype(str).tolist() == [e["episode"] for e in episodes]
        assert module["episodes/count"][()].tolist() == [int(e["count"]) for e in episodes]
        return len(rows)


def test_the_demo_gets_a_new_nwb_file(demo_cli):
    path = demo_cli / "results.nwb"
    assert check_module(path, demo_cli) >= 3
    with h5py.File(path, "r") as f:
        assert nwb_attrs(f["/"]) == ("NWBFile", "core")
        assert nwb_attrs(f["units"]) == ("Units", "core")
        assert len(f["units/id"]) == 100


def test_an_nwb_recording_is_copied_and_validated(tmp_path):
    source = tmp_path / "rec.nwb"
    shutil.copy(DATA / "A8604-211122.nwb", source)
    before = hashlib.sha256(source.read_bytes()).hexdigest()
    out = tmp_path / "out"
    # Windows of 60 s every 6 s: the three units' assemblies at this recording's rates.
    run_cli("run", source, "-o", out, "--nwb", "--window", "60", "--step", "6", "--min-size", "2")
    assert hashlib.sha256(source.read_bytes()).hexdigest() == before  # the input is never changed
    assert check_module(out / "results.nwb", out) >= 1
    with h5py.File(out / "results.nwb", "r") as copy, h5py.File(source, "r") as original:
        assert copy["units/spike_times"][()].tolist() == original["units/spike_times"][()].tolist()
        assert "general/extracellular_ephys/electrodes" in copy  # all of the input is kept
    assert hdmf_errors(out / "results.nwb") == []


def test_validation_sees_the_module(tmp_path):
    """The validation reaches the module's tables: a table missing a required attribute fails."""
    out = tmp_path / "out"
    run_cli("run", DATA / "A8604-211122.nwb", "-o", out, "--nwb")
    broken = tmp_path / "broken.nwb"
    shutil.copy(out / "results.nwb", broken)
    with h5py.File(broken, "r+") as f:
        del f["processing/spikeminer/episodes"].attrs["colnames"]
    assert any("colnames" in str(e) for e in hdmf_errors(broken))


def hdmf_errors(path):
    """hdmf's validation of the file against the NWB namespaces cached in it."""
    from hdmf.backends.hdf5 import HDF5IO
    from hdmf.build import BuildManager, TypeMap
    from hdmf.common import get_type_map
    from hdmf.spec import DatasetSpec, GroupSpec, NamespaceCatalog, SpecNamespace
    from hdmf.validate import ValidatorMap

    class NwbKeys:
        """NWB's schema names its types neurodata_type where hdmf's own says data_type."""

        @classmethod
        def type_key(cls):
            return "neurodata_type"

        @classmethod
        def inc_key(cls):
            return "neurodata_type_inc"

        @classmethod
        def def_key(cls):
            return "neurodata_type_def"

        @classmethod
        def build_const_args(cls, spec_dict):
            args = super().build_const_args(spec_dict)
            for part in ("def", "inc"):
                if f"neurodata_type_{part}" in args:
                    args[f"data_type_{part}"] = args.pop(f"neurodata_type_{part}")
            return args

    class NwbDataset(NwbKeys, DatasetSpec):
        pass

    class NwbGroup(NwbKeys, GroupSpec):
        @classmethod
        def dataset_spec_cls(cls):
            return NwbDataset

    class NwbNamespace(SpecNamespace):
        @classmethod
        def types_key(cls):
            return "neurodata_types"

    catalog = NamespaceCatalog(NwbGroup, NwbDataset, NwbNamespace)
    type_map = TypeMap(catalog)
    type_map.merge(get_type_map(), ns_catalog=True)
    with warnings.catch_warnings():
        # The input's own cached hdmf namespaces are older than Debian's hdmf, which says so.
        warnings.filterwarnings("ignore", message="Ignoring cached namespace")
        loaded = HDF5IO.load_namespaces(catalog, str(path))
    assert "core" in loaded
    with HDF5IO(str(path), mode="r", manager=BuildManager(type_map)) as io:
        return ValidatorMap(catalog.get_namespace("core")).validate(io.read_builder())

