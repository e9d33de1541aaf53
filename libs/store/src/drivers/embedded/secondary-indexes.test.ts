import { describe, expect, it } from "vitest";
import { decisionSchema } from "../../decisions/schema";
import { imageAssetSchema } from "../../image-assets/schema";
import { SecondaryIndexes } from "./secondary-indexes";

describe("SecondaryIndexes", () => {
  it("keys on the leading field of each declared index whose values are primitives", () => {
    // decisions: {user_id, timestamp, _id}, {rerun_of, ...} and {timestamp, _id}; a Date-led index gets no lookup table.
    expect(SecondaryIndexes.fromSchema(decisionSchema).fields).toEqual(["user_id", "rerun_of"]);
    expect(SecondaryIndexes.fromSchema(imageAssetSchema).fields.sort()).toEqual(["decisionHistory_id", "user_id"]);
  });

  it("names the candidates of an equality on user_id, in insertion order, and nothing for other filters", () => {
    const lookups = SecondaryIndexes.fromSchema(decisionSchema);
    const doc = (id: string, user_id: string | null) => ({ _id: id, user_id });
    for (const d of [doc("1", "u1"), doc("2", "u2"), doc("3", "u1"), doc("4", null)]) lookups.add(d);
    lookups.replace(doc("2", "u2"), doc("2", "u1"));

    expect(lookups.candidates({ user_id: "u1" })).toEqual(["1", "2", "3"]);
    expect(lookups.candidates({ $and: [{ user_id: { $eq: "u1" } }, { question: { $regex: "x" } }] })).toEqual(["1", "2", "3"]);
    expect(lookups.candidates({ user_id: null })).toEqual(["4"]);
    expect(lookups.candidates({ user_id: { $in: ["u2", null] } })).toEqual(["4"]);
    expect(lookups.candidates({ user_id: "u1", _id: "3" })).toEqual(["3"]);
    expect(lookups.candidates({ user_id: "nobody" })).toEqual([]);
    // Not an equality on an indexed field: the caller must scan.
    expect(lookups.candidates({})).toBeNull();
    expect(lookups.candidates({ user_id: { $ne: "u1" } })).toBeNull();
    expect(lookups.candidates({ user_id: /u1/ })).toBeNull();
    expect(lookups.candidates({ $or: [{ user_id: "u1" }] })).toBeNull();
    expect(lookups.candidates({ timestamp: new Date(0) })).toBeNull();
  });
});
