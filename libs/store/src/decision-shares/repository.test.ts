import { runOnBothDrivers } from "../testing/both-drivers";
import { describeDecisionShareRepositoryContract } from "./repository.contract";

await runOnBothDrivers("DecisionShareRepository", describeDecisionShareRepositoryContract);
