import { runOnBothDrivers } from "../testing/both-drivers";
import { describeBatchRepositoryContract } from "./repository.contract";

await runOnBothDrivers("BatchRepository", describeBatchRepositoryContract);
