import { runOnBothDrivers } from "../testing/both-drivers";
import { describeApiKeyRepositoryContract } from "./repository.contract";

await runOnBothDrivers("ApiKeyRepository", describeApiKeyRepositoryContract);
