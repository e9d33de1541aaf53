import { runOnBothDrivers } from "../testing/both-drivers";
import { describeApiUsageRepositoryContract } from "./repository.contract";

await runOnBothDrivers("ApiUsageRepository", describeApiUsageRepositoryContract);
