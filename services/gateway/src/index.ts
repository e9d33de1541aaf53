export * from "./service";
// Until the suites import the endpoint list from @sd/contracts/endpoints.
export { ENDPOINT_LIST as OPERATIONS, EXAMPLE_IDS, EXAMPLE_IMAGE, type DocumentedBody, type DocumentedOperation } from "@sd/contracts/endpoints";
