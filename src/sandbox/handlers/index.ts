/** One handler per entry of the shared endpoint table. */
import type { EndpointName } from "../../api/endpoints.js";
import type { Handler } from "../request-context.js";
import { listPrices, listProducts } from "./commerce.js";
import { health, index } from "./meta.js";
import {
  getPeptide,
  getRegulatoryStatus,
  listCategories,
  listPeptides,
  listResearchAreas,
  peptideResearch,
  peptideStudies,
  search,
} from "./research-handlers.js";
import { getStudy, listStudies } from "./study-handlers.js";
import { compareVendors, getVendor, getVendorShipping, listVendors } from "./vendor-handlers.js";

export const HANDLERS: Record<EndpointName, Handler> = {
  index,
  health,
  peptides: listPeptides,
  peptide: getPeptide,
  peptideStudies,
  peptideResearch,
  regulatoryStatus: getRegulatoryStatus,
  categories: listCategories,
  researchAreas: listResearchAreas,
  search,
  studies: listStudies,
  study: getStudy,
  vendors: listVendors,
  vendorCompare: compareVendors,
  vendor: getVendor,
  vendorShipping: getVendorShipping,
  prices: listPrices,
  products: listProducts,
};
