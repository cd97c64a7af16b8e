// Every file below public/ becomes an object on the blob storage's CDN. Set the API key first:
//   pulumi config set squarecloud:apiKey --secret
// Change a file and `pulumi up` replaces its object (new URL first, then the old one goes);
// add or remove a file and its object follows.
import * as sq from "pulumi-squarecloud";

const site = new sq.BlobFolder("site", { directory: "public", prefix: "static" });

// Relative path -> public URL, e.g. urls["css/site.css"]; wire them into an app's settings.
export const urls = site.urls;
