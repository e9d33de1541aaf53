import { runOnBothDrivers } from "../testing/both-drivers";
import { describeWebhookRepositoryContract } from "./repository.contract";

await runOnBothDrivers("Webhook repositories", describeWebhookRepositoryContract);
