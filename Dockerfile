# The phone page for a club's server: the wheel built from this checkout, installed into Python slim.
#   docker build -t mahjong-score .
#   docker run --rm -p 8000:8000 -v mahjong-sets:/data mahjong-score
# then open http://<server's address>:8000/ on the phones. Reached by a host name rather than an
# address, add it: docker run ... mahjong-score mahjong-score serve --host 0.0.0.0 --allow-host NAME
# (requests for other names are refused, against DNS rebinding).

# stage 1: the wheel, as `make wheel` builds it (sdist, then the wheel from it)
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
RUN pip install --no-cache-dir "build>=1.2" && python -m build --outdir /dist .

# stage 2: the wheel installed, nothing of the source tree
FROM python:3.11-slim
# OpenCV's wheel (opencv-python: the camera command opens a window) links libGL and GLib
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgl1 libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=wheel /dist/*.whl /tmp/
RUN pip install --no-cache-dir /tmp/*.whl && rm /tmp/*.whl \
    && useradd --create-home --uid 1000 mahjong && mkdir /data && chown mahjong /data
USER mahjong
# the players' taught tile sets: keep them in a volume
ENV MAHJONG_SETS=/data/sets
VOLUME /data
EXPOSE 8000
CMD ["mahjong-score", "serve", "--host", "0.0.0.0", "--port", "8000"]
