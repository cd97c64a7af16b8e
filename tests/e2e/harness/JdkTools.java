import java.util.ArrayList;
import java.util.List;
import java.util.spi.ToolProvider;

/**
 * Runs JDK tools one after the other in this one JVM: `java JdkTools.java javac <args> -- jar <args>
 * -- ...`. Each started as a process of its own pays the JVM's start-up and the compiler's warm-up
 * again. Stops at the first tool that fails, with its exit code.
 */
public class JdkTools {
  public static void main(String[] args) {
    List<String> command = new ArrayList<>();
    for (String arg : args) {
      if (!arg.equals("--")) {
        command.add(arg);
        continue;
      }
      run(command);
      command.clear();
    }
    run(command);
  }

  private static void run(List<String> command) {
    if (command.isEmpty()) return;
    String name = command.get(0);
    ToolProvider tool =
        ToolProvider.findFirst(name).orElseThrow(() -> new IllegalArgumentException("no JDK tool " + name));
    int code = tool.run(System.out, System.err, command.subList(1, command.size()).toArray(new String[0]));
    if (code != 0) System.exit(code);
  }
}
