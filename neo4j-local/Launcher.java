// Launcher starts embedded Neo4j 5.26 community with its Bolt connector, for
// running Casegraph and its tests on a machine without Docker.
//
// It runs straight from source (Java 11+): java -cp 'lib/*' Launcher.java
// The Makefile's neo4j-up target starts it in the background, and
// neo4j-wait.sh waits for the ready file it writes once Bolt answers.
//
// Configuration (system properties, all optional):
//   -Dneo4j.home=DIR        data, logs and state (default ./data)
//   -Dneo4j.conf=FILE       settings file (default ./neo4j.conf)
//   -Dneo4j.bolt=HOST:PORT  Bolt listen address (default 127.0.0.1:7687)
//   -Dneo4j.pagecache=SIZE  page cache, e.g. 512m or 2g (default 2g)

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;

import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;

public final class Launcher {
    public static void main(String[] args) throws Exception {
        Path home = Path.of(System.getProperty("neo4j.home", "data")).toAbsolutePath();
        Path conf = Path.of(System.getProperty("neo4j.conf", "neo4j.conf")).toAbsolutePath();
        String bolt = System.getProperty("neo4j.bolt", "127.0.0.1:7687");
        String pagecache = System.getProperty("neo4j.pagecache", "2g");
        Files.createDirectories(home);

        Path ready = home.resolve("ready");
        Files.deleteIfExists(ready);

        // The effective settings: the project's file, then the overrides.
        // Written out so that what runs is what one can read.
        Path effective = home.resolve("neo4j.effective.conf");
        String settings = Files.readString(conf, StandardCharsets.UTF_8)
                + "\n# overrides from the launcher\n"
                + "server.bolt.listen_address=" + bolt + "\n"
                + "server.memory.pagecache.size=" + pagecache + "\n";
        Files.writeString(effective, settings, StandardCharsets.UTF_8);

        long started = System.nanoTime();
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .loadPropertiesFromFile(effective)
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("casegraph-neo4j: shutting down");
            try {
                Files.deleteIfExists(ready);
            } catch (IOException e) {
                // The ready file is a hint for the wait script; nothing to do.
            }
            dbms.shutdown();
            stopped.countDown();
            System.out.println("casegraph-neo4j: stopped");
        }, "neo4j-shutdown"));

        // Ready means a query runs, not only that the socket is open.
        GraphDatabaseService db = dbms.database("neo4j");
        db.executeTransactionally("RETURN 1");

        long pid = ProcessHandle.current().pid();
        Path tmp = home.resolve("ready.tmp");
        Files.writeString(tmp, pid + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, ready, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.printf("casegraph-neo4j: ready on bolt://%s (pid %d, %d ms)%n",
                bolt, pid, (System.nanoTime() - started) / 1_000_000);
        stopped.await();
    }
}
