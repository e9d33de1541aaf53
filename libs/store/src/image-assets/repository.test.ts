import { runOnBothDrivers } from "../testing/both-drivers";
import { describeImageAssetRepositoryContract } from "./repository.contract";

await runOnBothDrivers("ImageAssetRepository", describeImageAssetRepositoryContract);
