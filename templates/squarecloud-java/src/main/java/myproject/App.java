package myproject;

import com.pulumi.Pulumi;
import com.pulumi.resources.CustomResourceOptions;
import io.github.squarecloud.squarecloud.Database;
import io.github.squarecloud.squarecloud.DatabaseArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            // A managed redis database: 512 MB, the smallest a redis database takes.
            var cache = new Database("cache", DatabaseArgs.builder()
                .name("cache")
                .type("redis")
                .memory(512)
                .version("7.4.5")
                .build(),
                // Where the engine downloads the plugin on the first run: the Java SDK does not say.
                CustomResourceOptions.builder()
                    .pluginDownloadURL("github://api.github.com/squarecloud/pulumi-squarecloud")
                    .build());

            ctx.export("cacheId", cache.id());
            ctx.export("cacheUrl", cache.connectionUrl()); // secret: `pulumi stack output --show-secrets cacheUrl` shows it
        });
    }
}
