// Pulumi provider for the Square Cloud hosting platform and its blob storage: databases, workspaces, members, blob objects, and app data sources.
package squarecloud
