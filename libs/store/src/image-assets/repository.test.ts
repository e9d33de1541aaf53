import { describe, expect, it } from "vitest";
import { runOnBothDrivers } from "../testing/both-drivers";
import { describeImageAssetRepositoryContract } from "./repository.contract";
import { describeImage } from "./repository";

describe("describeImage", () => {
  it("derives the type and decoded size from a data URL (image/jpeg for bare base64)", () => {
    expect(describeImage(`data:image/png;base64,${Buffer.alloc(10, 1).toString("base64")}`)).toEqual({ image_type: "image/png", file_size: 10 });
    expect(describeImage(`data:IMAGE/GIF;base64,${Buffer.alloc(11).toString("base64")}`)).toEqual({ image_type: "image/gif", file_size: 11 });
    expect(describeImage(Buffer.alloc(5).toString("base64"))).toEqual({ image_type: "image/jpeg", file_size: 5 });
  });
});

await runOnBothDrivers("ImageAssetRepository", describeImageAssetRepositoryContract);
