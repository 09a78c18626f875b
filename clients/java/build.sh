#!/usr/bin/env bash
# Builds the jar without Maven (javac and jar of JDK 17 or newer), as CI does: Maven Central is not
# reachable from the service's machines. With Maven at hand, `mvn package` builds the same jar.
#   ./build.sh [output directory]   (default: target)
# JACKSON_CLASSPATH names Jackson's databind, core and annotations jars (Debian's by default:
# apt install libjackson2-databind-java).
set -euo pipefail
cd "$(dirname "$0")"
out=${1:-target}
jackson=${JACKSON_CLASSPATH:-/usr/share/java/jackson-databind.jar:/usr/share/java/jackson-core.jar:/usr/share/java/jackson-annotations.jar}
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml)
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
find src/main/java -name '*.java' > "$classes/sources"
javac -encoding UTF-8 --release 17 -cp "$jackson" -d "$classes/out" "@$classes/sources"
# Where Maven puts the description of the jar it builds.
mkdir -p "$classes/out/META-INF/maven/gt.pasarela.contribuyentes/cliente"
cp pom.xml "$classes/out/META-INF/maven/gt.pasarela.contribuyentes/cliente/pom.xml"
mkdir -p "$out"
jar --create --file "$out/cliente-$version.jar" -C "$classes/out" .
echo "$out/cliente-$version.jar"
