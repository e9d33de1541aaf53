import { runOnBothDrivers } from "../testing/both-drivers";
import { describePresetRepositoryContract } from "./repository.contract";

await runOnBothDrivers("PresetRepository", describePresetRepositoryContract);
